package io.tickwork.server.http;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.abort;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The host a server binds is the family it listens on: {@code 0.0.0.0} is every IPv4 interface and
 * no IPv6 one (a dual-stack socket would bind {@code ::}, so firewall rules written for IPv4 would
 * miss it), while {@code ::} takes both where the system maps IPv4 onto IPv6.
 */
@Timeout(60)
class BindAddressTest {

    @Test
    void anIpv4HostListensOnIpv4Only() throws Exception {
        InetAddress v6loopback = InetAddress.getByName("::1");
        try (ServerSocket probe = new ServerSocket(0, 1, v6loopback)) {
            probe.getLocalPort(); // IPv6 loopback works here
        } catch (IOException noIpv6) {
            abort("no IPv6 loopback here: " + noIpv6);
        }
        HttpServer s = HttpServer.builder((req, res) -> res.appendAscii("v4"))
                .host("0.0.0.0")
                .port(0)
                .threads(1)
                .start();
        try {
            try (Socket v4 = new Socket()) {
                v4.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), s.port()), 5_000);
            }
            assertThrows(ConnectException.class, () -> {
                try (Socket v6 = new Socket()) {
                    v6.connect(new InetSocketAddress(v6loopback, s.port()), 5_000);
                }
            });
        } finally {
            s.close();
        }
        HttpServer both = HttpServer.builder((req, res) -> res.appendAscii("any"))
                .host("::")
                .port(0)
                .threads(1)
                .start();
        try (Socket v6 = new Socket()) {
            v6.connect(new InetSocketAddress(v6loopback, both.port()), 5_000);
            if (!(v6.getInetAddress() instanceof Inet6Address)) {
                throw new AssertionError("connected over " + v6.getInetAddress());
            }
        } finally {
            both.close();
        }
    }
}
