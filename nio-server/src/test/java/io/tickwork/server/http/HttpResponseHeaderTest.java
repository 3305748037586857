package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a handler may add with {@link HttpResponse#header}: its own headers, never the framing. */
class HttpResponseHeaderTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Content-Length",
                "content-length",
                "TRANSFER-ENCODING",
                "Connection",
                "Content-Type",
                "Date",
                "server"
            })
    void theHeadersTheServerFramesWithAreRefused(String name) {
        HttpResponse r = new HttpResponse();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.header(name, "5"));
        assertTrue(e.getMessage().startsWith(name + " is set by the server"), e.getMessage());
    }

    @Test
    void badNamesAndValuesAreRefusedAndOthersAccepted() {
        HttpResponse r = new HttpResponse();
        assertThrows(IllegalArgumentException.class, () -> r.header("", "x"));
        assertThrows(IllegalArgumentException.class, () -> r.header("X Y", "x"));
        assertThrows(IllegalArgumentException.class, () -> r.header("X-Y", "a\r\nb"));
        assertEquals(r, r.header("Cache-Control", "no-store").header("Content-Language", "en"));
    }

    @Test
    void aNullContentTypeFailsInTheHandler() {
        assertThrows(NullPointerException.class, () -> new HttpResponse().contentType(null));
    }
}
