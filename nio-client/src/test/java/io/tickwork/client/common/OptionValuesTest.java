package io.tickwork.client.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tickwork.client.common.OptionValues.CountConverter;
import io.tickwork.client.common.OptionValues.DurationConverter;
import io.tickwork.client.common.OptionValues.RateConverter;
import io.tickwork.client.common.OptionValues.SizeConverter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class OptionValuesTest {

    @Test
    void sizesTakeABinaryUnitOrAreBytes() {
        SizeConverter c = new SizeConverter();
        assertEquals(3L << 30, c.convert("3g"));
        assertEquals(3L << 30, c.convert("3G"));
        assertEquals(3L << 30, c.convert("3GiB"));
        assertEquals(512L << 20, c.convert("512m"));
        assertEquals(512L << 20, c.convert("512mb"));
        assertEquals(1536, c.convert("1.5k"));
        assertEquals(3L << 29, c.convert("1.5g"));
        assertEquals(2L << 40, c.convert("2t"));
        assertEquals(100_000L << 30, c.convert("100000g"));
        assertEquals(4096, c.convert("4096"));
        assertEquals(0, c.convert("0"));
        for (String bad : new String[] {"lots", "-1g", "3x", "", "g", "1.5.5m", "99999999999t", "Infinity"}) {
            TypeConversionException e = assertThrows(TypeConversionException.class, () -> c.convert(bad));
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void durationsTakeAUnitOrAreSeconds() {
        DurationConverter d = new DurationConverter();
        assertEquals(Duration.ofMillis(250), d.convert("250ms"));
        assertEquals(Duration.ofMillis(1500), d.convert("1.5s"));
        assertEquals(Duration.ofMinutes(2), d.convert("2m"));
        assertEquals(Duration.ofHours(1), d.convert("1h"));
        assertEquals(Duration.ofNanos(100_000), d.convert("100us"));
        assertEquals(Duration.ofSeconds(7), d.convert("7"));
        // exact: a double would make these 1000.999999 and 1016.999999 ms
        assertEquals(Duration.ofMillis(1001), d.convert("1.001"));
        assertEquals(Duration.ofMillis(1017), d.convert("1.017s"));
        assertEquals(Duration.ofNanos(1), d.convert("0.0019us")); // 1.9 ns: the fraction is dropped
        assertEquals(Duration.ofNanos(Long.MAX_VALUE), d.convert("9223372036854775.807us"));
        for (String bad : new String[] {
            "soon", "-1s", "5x", "", "Infinity", "40d", "1f", "0x10", "NaN", "1e3s", "2562048h", "9223372036854775808us"
        }) {
            TypeConversionException e = assertThrows(TypeConversionException.class, () -> d.convert(bad));
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void countsTakeThousandAndMillionSuffixes() {
        CountConverter c = new CountConverter();
        assertEquals(2_000L, c.convert("2k"));
        assertEquals(1_000_000L, c.convert("1m"));
        assertEquals(1_500L, c.convert("1.5k"));
        assertEquals(1_000L, c.convert("1_000"));
        assertEquals(-5L, c.convert("-5"));
        for (String bad : new String[] {"many", "2g", "99999999999999999999"}) {
            TypeConversionException e = assertThrows(TypeConversionException.class, () -> c.convert(bad));
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void ratesAreDecimalsOrCounts() {
        RateConverter r = new RateConverter();
        assertEquals(1e6, r.convert("1m"));
        assertEquals(1500.0, r.convert("1.5k"));
        assertEquals(12.5, r.convert("12.5"));
        assertThrows(TypeConversionException.class, () -> r.convert("fast"));
    }

    @Test
    void rangeErrorsNameTheOptionTheRangeAndTheValue() {
        assertEquals(5, OptionValues.intInRange("--connections", 5, 1, 10));
        UsageException e = assertThrows(UsageException.class, () -> OptionValues.intInRange("--connections", 0, 1, 10));
        assertEquals("--connections must be in [1, 10]: 0", e.getMessage());
        e = assertThrows(UsageException.class, () -> OptionValues.inRange("--rate", 2e9, 0, 1e9));
        assertEquals("--rate must be in [0, 1000000000]: 2000000000", e.getMessage());
        e = assertThrows(
                UsageException.class,
                () -> OptionValues.inRange(
                        "--duration", Duration.ofMillis(5), Duration.ofMillis(100), Duration.ofHours(1)));
        assertEquals("--duration must be in [100.00ms, 3600.00s]: 5.00ms", e.getMessage());
    }
}
