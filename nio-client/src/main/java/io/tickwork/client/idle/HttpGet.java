package io.tickwork.client.idle;

import io.tickwork.client.common.Targets;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A one-shot blocking {@code GET} with {@code Connection: close}, for small status documents
 * such as a server's {@code /stats}. Returns the body, or null on any failure (the caller prints
 * "unavailable"); at most 1 MiB is read. The timeout bounds the whole exchange, connect
 * included, not each read, so a server that trickles its answer cannot hold the caller longer.
 * Thread safe (stateless).
 */
final class HttpGet {
    private HttpGet() {}

    static String body(Targets.Url url, int timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        try (Socket s = new Socket()) {
            s.connect(url.address(), timeoutMillis);
            OutputStream o = s.getOutputStream();
            o.write(("GET " + url.target() + " HTTP/1.1\r\nHost: " + url.hostHeader() + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            o.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            byte[] b = new byte[8192];
            int n;
            while (buf.size() < (1 << 20)) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return null;
                }
                s.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
                if ((n = in.read(b)) <= 0) {
                    break;
                }
                buf.write(b, 0, n);
            }
            String all = buf.toString(StandardCharsets.UTF_8);
            int split = all.indexOf("\r\n\r\n");
            if (!all.startsWith("HTTP/1.") || split < 0) {
                return null;
            }
            String head = all.substring(0, split);
            if (!head.substring(9, 10).equals("2")) {
                return null;
            }
            return all.substring(split + 4).trim();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
