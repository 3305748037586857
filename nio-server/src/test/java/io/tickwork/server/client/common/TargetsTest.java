package io.tickwork.server.client.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TargetsTest {

    @Test
    void onlyLoopbackTargets() {
        assertEquals(8080, Targets.hostPort("--target", "127.0.0.9:8080").getPort());
        assertEquals(
                "127.0.0.1", Targets.hostPort("--target", ":81").getAddress().getHostAddress());
        UsageException e = assertThrows(UsageException.class, () -> Targets.url("URL", "http://10.1.2.3:80/"));
        assertTrue(e.getMessage().contains("10.1.2.3"), e.getMessage());
        assertThrows(UsageException.class, () -> Targets.hostPort("--target", "192.168.0.1:80"));
        assertThrows(UsageException.class, () -> Targets.hostPort("--target", "127.0.0.1:70000"));
        Targets.Url u = Targets.url("URL", "http://127.0.0.1:8080/d/x?y=1");
        assertEquals("/d/x?y=1", u.target());
        assertEquals("127.0.0.1:8080", u.hostHeader());
    }
}
