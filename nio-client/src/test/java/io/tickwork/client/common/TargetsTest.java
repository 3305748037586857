package io.tickwork.client.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetsTest {

    @Test
    void anyHostIsATargetAndANameThatDoesNotResolveIsNamed() {
        assertEquals(8080, Targets.hostPort("--target", "127.0.0.9:8080").getPort());
        assertEquals(
                "127.0.0.1", Targets.hostPort("--target", ":81").getAddress().getHostAddress());
        // parsed only: nothing connects to these documentation addresses (RFC 5737)
        assertEquals(new InetSocketAddress("192.0.2.10", 80), Targets.hostPort("--target", "192.0.2.10:80"));
        assertEquals(
                List.of(new InetSocketAddress("192.0.2.10", 80), new InetSocketAddress("127.0.0.1", 81)),
                Targets.hostPorts("--target", "192.0.2.10:80,127.0.0.1:81"));
        Targets.Url remote = Targets.url("URL", "http://198.51.100.7:8080/d/x");
        assertEquals(new InetSocketAddress("198.51.100.7", 8080), remote.address());
        assertEquals("198.51.100.7:8080", remote.hostHeader());
        UsageException e =
                assertThrows(UsageException.class, () -> Targets.hostPort("--target", "no-such-host.invalid:80"));
        assertEquals("--target host does not resolve: no-such-host.invalid", e.getMessage());
        e = assertThrows(UsageException.class, () -> Targets.url("URL", "http://no-such-host.invalid:80/"));
        assertTrue(e.getMessage().contains("no-such-host.invalid"), e.getMessage());
        assertThrows(UsageException.class, () -> Targets.hostPort("--target", "127.0.0.1:70000"));
        assertEquals(
                "URL has a port out of range 1..65535: http://127.0.0.1:99999/",
                assertThrows(UsageException.class, () -> Targets.url("URL", "http://127.0.0.1:99999/"))
                        .getMessage());
        Targets.Url u = Targets.url("URL", "http://127.0.0.1:8080/d/x?y=1");
        assertEquals("/d/x?y=1", u.target());
        assertEquals("127.0.0.1:8080", u.hostHeader());
    }
}
