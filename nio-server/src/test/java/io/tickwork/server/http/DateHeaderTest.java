package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** The {@code Date} header's format: RFC 9110 5.6.7's IMF-fixdate, two-digit day included. */
class DateHeaderTest {
    @Test
    void singleDigitDaysHaveTwoDigits() {
        assertEquals(
                "Tue, 01 Dec 2026 08:00:03 GMT",
                ResponseEncoder.IMF_FIXDATE.format(ZonedDateTime.of(2026, 12, 1, 8, 0, 3, 0, ZoneOffset.UTC)));
        assertEquals(
                "Sun, 06 Nov 1994 08:49:37 GMT", // RFC 9110's own example
                ResponseEncoder.IMF_FIXDATE.format(ZonedDateTime.of(1994, 11, 6, 8, 49, 37, 0, ZoneOffset.UTC)));
    }
}
