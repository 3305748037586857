package io.tickwork.client.common;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses target addresses: {@code host:port} and {@code http://} URLs with any host name or
 * address. A name is resolved once, here, when the command line is checked; an unresolvable
 * name is a {@link UsageException} naming it. Stateless; a call may block on the resolver.
 */
public final class Targets {
    private Targets() {}

    /** {@code host:port}, {@code :port} or {@code port}; the host defaults to 127.0.0.1. */
    public static InetSocketAddress hostPort(String option, String s) {
        String host = "127.0.0.1";
        String port = s.trim();
        int colon = port.lastIndexOf(':');
        if (colon >= 0) {
            host = colon == 0 ? host : port.substring(0, colon);
            port = port.substring(colon + 1);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " must be host:port with a numeric port: " + s);
        }
        if (p < 1 || p > 65535) {
            throw new UsageException(option + " port must be in [1, 65535]: " + s);
        }
        return new InetSocketAddress(resolve(option, host), p);
    }

    public static List<InetSocketAddress> hostPorts(String option, String csv) {
        List<InetSocketAddress> out = new ArrayList<>();
        for (String part : csv.split(",")) {
            if (!part.isBlank()) {
                out.add(hostPort(option, part));
            }
        }
        if (out.isEmpty()) {
            throw new UsageException(option + " needs at least one host:port: " + csv);
        }
        return out;
    }

    /** {@code host} resolved to its first address; a name that does not resolve is a usage error. */
    public static InetAddress resolve(String option, String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new UsageException(option + " host does not resolve: " + host);
        }
    }

    /** An {@code http://host:port/path?query} URL; its host resolved once. */
    public static Url url(String option, String s) {
        URI u;
        try {
            u = new URI(s);
        } catch (URISyntaxException e) {
            throw new UsageException(
                    option + " must be an http://host:port/path URL: " + s + " (" + e.getReason() + ")");
        }
        if (!"http".equalsIgnoreCase(u.getScheme()) || u.getHost() == null) {
            throw new UsageException(option + " must be an http://host:port/path URL: " + s);
        }
        int port = u.getPort() < 0 ? 80 : u.getPort();
        if (port < 1 || port > 65535) {
            throw new UsageException(option + " has a port out of range 1..65535: " + s);
        }
        InetAddress a = resolve(option, u.getHost());
        String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
        if (u.getRawQuery() != null) {
            path = path + "?" + u.getRawQuery();
        }
        String hostHeader = u.getHost() + (u.getPort() < 0 ? "" : ":" + port);
        return new Url(new InetSocketAddress(a, port), hostHeader, path);
    }

    /** {@code host:port} of {@code address}, an IPv6 literal in brackets ({@code [::1]:80}), as a target is written. */
    public static String text(InetSocketAddress address) {
        InetAddress a = address.getAddress();
        String host = a.getHostAddress();
        return (a instanceof java.net.Inet6Address ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    /** A parsed URL: where to connect, the Host header, and the request target (path?query). */
    public record Url(InetSocketAddress address, String hostHeader, String target) {}
}
