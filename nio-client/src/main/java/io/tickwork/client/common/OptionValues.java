package io.tickwork.client.common;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The quantities on the load tools' command lines: picocli converters for durations ({@code
 * 500ms}, {@code 10s}, {@code 2m}, {@code 1h}; a bare number is seconds), counts ({@code 64},
 * {@code 200k}, {@code 1m}), rates ({@code 20000}, {@code 1.5k}) and sizes in bytes ({@code 512m},
 * {@code 3g}), and the range checks each
 * tool applies after parsing. A value that does not convert is a picocli error naming the option;
 * a value out of range is a {@link UsageException} {@code "--name must be in [min, max]: value"}.
 * Stateless.
 */
public final class OptionValues {
    /**
     * Half the processors this JVM may use, at least 1: the default thread count of each side of a
     * load test when both sides share the machine (1 + 1 on 2 cores, 8 + 8 on 16), so neither
     * starves the other and both grow with the machine.
     */
    public static final long HALF_THE_CORES = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);

    private OptionValues() {}

    /**
     * The load tools' parsing conventions, applied to {@code cl} and the subcommands it has: a
     * repeated option takes its last value, and {@code @file} arguments are not expanded.
     */
    public static CommandLine conventions(CommandLine cl) {
        return cl.setOverwrittenOptionsAllowed(true).setExpandAtFiles(false);
    }

    /** Picocli converter: {@link #parseDuration}. */
    public static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return parseDuration(value);
            } catch (NumberFormatException e) {
                throw new TypeConversionException(
                        "'" + value + "' is not a duration like 500ms, 10s, 2m, 1h (a bare number is seconds)");
            } catch (ArithmeticException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** Picocli converter: {@link #parseCount}. */
    public static final class CountConverter implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return parseCount(value);
            } catch (NumberFormatException | ArithmeticException e) {
                throw new TypeConversionException("'" + value + "' is not an integer like 64, 200k, 1m");
            }
        }
    }

    /** Picocli converter: {@link #parseSize}. */
    public static final class SizeConverter implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return parseSize(value);
            } catch (NumberFormatException | ArithmeticException e) {
                throw new TypeConversionException("'" + value + "' is not a size like 512m, 3g, 1.5g, 4096");
            }
        }
    }

    /**
     * A size in bytes: a non-negative decimal number with an optional binary unit {@code k},
     * {@code m}, {@code g} or {@code t} (KiB, MiB, GiB, TiB), which may be followed by {@code b}
     * or {@code ib}; a bare number is bytes. {@code 3g} = 3 GiB, {@code 1.5k} = 1536.
     *
     * @throws NumberFormatException if {@code v} is not one
     * @throws ArithmeticException if it does not fit a long
     */
    public static long parseSize(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT).replace("_", "");
        if (s.endsWith("ib")) {
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("b")) {
            s = s.substring(0, s.length() - 1);
        }
        int shift = 0;
        if (!s.isEmpty()) {
            int unit = "kmgt".indexOf(s.charAt(s.length() - 1));
            if (unit >= 0) {
                shift = 10 * (unit + 1);
                s = s.substring(0, s.length() - 1);
            }
        }
        if (s.isEmpty() || s.startsWith("-") || s.startsWith("+")) {
            throw new NumberFormatException(v);
        }
        if (s.indexOf('.') >= 0 || s.indexOf('e') >= 0) {
            double x = Double.parseDouble(s) * (1L << shift);
            if (!(x >= 0) || x >= 0x1p63) {
                throw new ArithmeticException(v);
            }
            return (long) x;
        }
        long n = Long.parseLong(s);
        if (shift > 0 && n > (Long.MAX_VALUE >> shift)) {
            throw new ArithmeticException(v);
        }
        return n << shift;
    }

    /** Picocli converter: a decimal number, or a count with a k or m suffix ({@code 1.5k}). */
    public static final class RateConverter implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            try {
                String t = value.trim().toLowerCase(Locale.ROOT);
                return t.endsWith("k") || t.endsWith("m") ? (double) parseCount(t) : Double.parseDouble(t);
            } catch (NumberFormatException | ArithmeticException e) {
                throw new TypeConversionException("'" + value + "' is not a number like 20000, 1.5k, 1m");
            }
        }
    }

    /**
     * A duration: a non-negative decimal number with a unit {@code us}, {@code ms}, {@code s},
     * {@code m} or {@code h}; without a unit, seconds. Exact to the nanosecond ({@code 1.001s} is
     * 1,001 ms); a finer fraction is dropped.
     *
     * @throws NumberFormatException if {@code v} is not one
     * @throws ArithmeticException if it is over {@code Long.MAX_VALUE} nanoseconds (292 years)
     */
    public static Duration parseDuration(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        long mult;
        String num;
        if (s.endsWith("ms")) {
            mult = 1_000_000L;
            num = s.substring(0, s.length() - 2);
        } else if (s.endsWith("us")) {
            mult = 1_000L;
            num = s.substring(0, s.length() - 2);
        } else if (s.endsWith("s")) {
            mult = 1_000_000_000L;
            num = s.substring(0, s.length() - 1);
        } else if (s.endsWith("m")) {
            mult = 60_000_000_000L;
            num = s.substring(0, s.length() - 1);
        } else if (s.endsWith("h")) {
            mult = 3_600_000_000_000L;
            num = s.substring(0, s.length() - 1);
        } else {
            mult = 1_000_000_000L;
            num = s;
        }
        // digits and one point only: Double.parseDouble would also take "40d" (40 seconds, not
        // days), "1f", "0x1p3" and "NaN"
        if (!num.matches("[0-9]+(\\.[0-9]*)?|\\.[0-9]+")) {
            throw new NumberFormatException(v);
        }
        // exact decimal arithmetic: through a double, 1.001s would come out as 1000.999999 ms
        BigDecimal nanos = new BigDecimal(num).multiply(BigDecimal.valueOf(mult));
        if (nanos.compareTo(MAX_NANOS) > 0) {
            throw new ArithmeticException("'" + v + "' is over " + Long.MAX_VALUE + " ns (292 years)");
        }
        return Duration.ofNanos(nanos.longValue()); // a fraction of a nanosecond is dropped
    }

    private static final BigDecimal MAX_NANOS = BigDecimal.valueOf(Long.MAX_VALUE);

    /**
     * An integer with an optional k (thousand) or m (million) suffix and {@code _} separators:
     * {@code 1m} = 1,000,000, {@code 1.5k} = 1,500.
     *
     * @throws NumberFormatException if {@code v} is not one, a fraction included ({@code 1.5},
     *     {@code 1.0005k})
     * @throws ArithmeticException if it does not fit a long
     */
    public static long parseCount(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT).replace("_", "");
        long mult = 1;
        if (s.endsWith("k")) {
            mult = 1_000;
            s = s.substring(0, s.length() - 1);
        } else if (s.endsWith("m")) {
            mult = 1_000_000;
            s = s.substring(0, s.length() - 1);
        }
        if (s.indexOf('.') >= 0) {
            java.math.BigDecimal exact = new java.math.BigDecimal(s).multiply(java.math.BigDecimal.valueOf(mult));
            try {
                return exact.longValueExact(); // a whole number, or an error: never silently truncated
            } catch (ArithmeticException notWhole) {
                throw new NumberFormatException("not a whole number: " + v);
            }
        }
        return Math.multiplyExact(Long.parseLong(s), mult);
    }

    /** {@code value} if in [min, max], else a {@link UsageException} naming {@code option}. */
    public static long inRange(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw new UsageException(option + " must be in [" + min + ", " + max + "]: " + value);
        }
        return value;
    }

    /** {@link #inRange(String, long, long, long)} for an int option. */
    public static int intInRange(String option, long value, int min, int max) {
        return (int) inRange(option, value, (long) min, (long) max);
    }

    public static double inRange(String option, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            throw new UsageException(
                    option + " must be in [" + number(min) + ", " + number(max) + "]: " + number(value));
        }
        return value;
    }

    /** A double as typed: {@code 20000} rather than {@code 20000.0}, {@code 1.5} as is. */
    public static String number(double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? Long.toString((long) x) : Double.toString(x);
    }

    public static Duration inRange(String option, Duration value, Duration min, Duration max) {
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new UsageException(option + " must be in [" + Fmt.duration(min) + ", " + Fmt.duration(max) + "]: "
                    + Fmt.duration(value));
        }
        return value;
    }
}
