package io.tickwork.client.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OsErrorTest {

    @Test
    void osErrorsAreRecognisedWithAdvice() {
        assertEquals(OsError.EMFILE, OsError.classify(new java.io.IOException("Too many open files")));
        assertEquals(OsError.ENFILE, OsError.classify(new java.io.IOException("Too many open files in system")));
        assertEquals(
                OsError.EADDRNOTAVAIL, OsError.classify(new java.net.BindException("Cannot assign requested address")));
        assertEquals(OsError.ECONNREFUSED, OsError.classify(new java.net.ConnectException("Connection refused")));
        assertTrue(OsError.EMFILE.advice().contains("ulimit -n"));
        assertTrue(OsError.EADDRNOTAVAIL.advice().contains("ip_local_port_range"));
        assertTrue(OsError.EMFILE.hardLimit() && OsError.ECONNREFUSED.hardLimit());
    }
}
