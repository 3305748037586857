package io.tickwork.server.client.common;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A small GNU-style option parser: {@code --name value}, {@code --name=value}, {@code --flag},
 * positional arguments. Each command declares its options as {@link Opt}s, which also give the
 * {@code --help} text. Validation errors name the option, the bad value and the expectation.
 * Not thread safe; one per command line.
 */
public final class Args {

    /** One option: its name without dashes, its value placeholder (null for a flag), its help. */
    public record Opt(String name, String arg, String help, String alias) {
        public static Opt flag(String name, String help) {
            return new Opt(name, null, help, null);
        }

        public static Opt value(String name, String arg, String help) {
            return new Opt(name, arg, help, null);
        }

        /** The same option also spelled {@code -x}. */
        public Opt alias(char x) {
            return new Opt(name, arg, help, "-" + x);
        }
    }

    private final String command;
    private final Map<String, String> values = new LinkedHashMap<>();
    private final List<String> positional = new ArrayList<>();

    private Args(String command) {
        this.command = command;
    }

    public static Args parse(String command, List<Opt> opts, String[] argv) {
        Args a = new Args(command);
        Map<String, Opt> byName = new LinkedHashMap<>();
        Map<String, Opt> byAlias = new LinkedHashMap<>();
        for (Opt o : opts) {
            byName.put(o.name(), o);
            if (o.alias() != null) {
                byAlias.put(o.alias(), o);
            }
        }
        for (int i = 0; i < argv.length; i++) {
            String s = argv[i];
            if (s.equals("-h") || s.equals("--help")) {
                a.values.put("help", "true");
                continue;
            }
            Opt aliased = byAlias.get(s);
            if (aliased != null) {
                s = "--" + aliased.name();
            } else if (s.length() == 2 && s.charAt(0) == '-' && Character.isLetter(s.charAt(1))) {
                throw new UsageException("unknown option for " + command + ": " + s + " (see " + command + " --help)");
            }
            if (!s.startsWith("--") || s.length() == 2) {
                a.positional.add(s);
                continue;
            }
            String name = s.substring(2);
            String inline = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                inline = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            Opt o = byName.get(name);
            if (o == null) {
                throw new UsageException(
                        "unknown option for " + command + ": --" + name + " (see " + command + " --help)");
            }
            if (o.arg() == null) {
                if (inline != null) {
                    throw new UsageException("option --" + name + " takes no value: " + s);
                }
                a.values.put(name, "true");
            } else if (inline != null) {
                a.values.put(name, inline);
            } else if (i + 1 < argv.length) {
                a.values.put(name, argv[++i]);
            } else {
                throw new UsageException("option --" + name + " needs a value " + o.arg());
            }
        }
        return a;
    }

    public static String help(String usage, String what, List<Opt> opts) {
        StringBuilder sb = new StringBuilder();
        sb.append("usage: ").append(usage).append("\n\n").append(what).append("\n\noptions:\n");
        for (Opt o : opts) {
            String left = "  " + (o.alias() == null ? "" : o.alias() + ", ") + "--" + o.name()
                    + (o.arg() == null ? "" : " " + o.arg());
            sb.append(left);
            if (left.length() < 28) {
                sb.append(" ".repeat(28 - left.length()));
            } else {
                sb.append("\n").append(" ".repeat(28));
            }
            sb.append(o.help().replace("\n", "\n" + " ".repeat(28))).append('\n');
        }
        sb.append("  --help                    this text\n");
        return sb.toString();
    }

    public boolean help() {
        return values.containsKey("help");
    }

    public List<String> positional() {
        return positional;
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public boolean flag(String name) {
        return values.containsKey(name);
    }

    public String string(String name, String def) {
        return values.getOrDefault(name, def);
    }

    public long longValue(String name, long def, long min, long max) {
        String v = values.get(name);
        if (v == null) {
            return def;
        }
        long x;
        try {
            x = parseCount(v);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be an integer: " + v);
        }
        if (x < min || x > max) {
            throw new UsageException("--" + name + " must be in [" + min + ", " + max + "]: " + v);
        }
        return x;
    }

    public int intValue(String name, int def, int min, int max) {
        return (int) longValue(name, def, min, max);
    }

    public double doubleValue(String name, double def, double min, double max) {
        String v = values.get(name);
        if (v == null) {
            return def;
        }
        double x;
        try {
            String t = v.trim().toLowerCase(Locale.ROOT);
            x = t.endsWith("k") || t.endsWith("m") ? parseCount(t) : Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a number: " + v);
        }
        if (!(x >= min && x <= max)) {
            throw new UsageException("--" + name + " must be in [" + min + ", " + max + "]: " + v);
        }
        return x;
    }

    /** A duration: {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}; a bare number is seconds. */
    public Duration duration(String name, Duration def, Duration min, Duration max) {
        String v = values.get(name);
        if (v == null) {
            return def;
        }
        Duration d;
        try {
            d = parseDuration(v);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a duration like 500ms, 10s, 2m: " + v);
        }
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw new UsageException(
                    "--" + name + " must be in [" + Fmt.duration(min) + ", " + Fmt.duration(max) + "]: " + v);
        }
        return d;
    }

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
        double x = Double.parseDouble(num);
        if (!(x >= 0) || Double.isInfinite(x)) {
            throw new NumberFormatException(v);
        }
        return Duration.ofNanos((long) (x * mult));
    }

    /** An integer with an optional k (thousand) or m (million) suffix: {@code 1m} = 1,000,000. */
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
            return (long) (Double.parseDouble(s) * mult);
        }
        return Math.multiplyExact(Long.parseLong(s), mult);
    }
}
