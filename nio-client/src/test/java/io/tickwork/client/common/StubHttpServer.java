package io.tickwork.client.common;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A raw-socket HTTP/1.1 server under the test's control: a thread per connection reads every
 * request already available (so pipelined requests arrive as a batch), asks the {@link
 * Behaviour} what to answer for each, and writes the answers in one write. The behaviour can
 * return any bytes (bad responses), {@link #CLOSE} to close the connection, or {@link #SILENT}
 * to never answer.
 */
public final class StubHttpServer implements AutoCloseable {
    public static final byte[] CLOSE = new byte[0];
    public static final byte[] SILENT = new byte[0];

    /** What to answer to the {@code n}th request (from 0) on a connection for {@code path}. */
    public interface Behaviour {
        byte[] answer(int n, String path);
    }

    public final AtomicLong requests = new AtomicLong();
    public final AtomicInteger connections = new AtomicInteger();
    public final AtomicInteger maxBatch = new AtomicInteger();
    private final ServerSocket server;
    private final Behaviour behaviour;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    /** Guarded by {@link #sockets}: set by {@link #close}, after which an accepted socket is closed at once. */
    private boolean closed;

    private final Thread acceptor;

    public StubHttpServer(Behaviour behaviour) throws IOException {
        this.behaviour = behaviour;
        server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        acceptor = new Thread(this::accept, "stub-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public static byte[] ok(String body) {
        return response(200, body);
    }

    public static byte[] response(int status, String body) {
        return ("HTTP/1.1 " + status + " X\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    public static byte[] chunked(String... parts) {
        StringBuilder sb = new StringBuilder("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (String p : parts) {
            sb.append(Integer.toHexString(p.length()))
                    .append(";ext=1\r\n")
                    .append(p)
                    .append("\r\n");
        }
        sb.append("0\r\nX-Trailer: y\r\n\r\n");
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    public int port() {
        return server.getLocalPort();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                synchronized (sockets) {
                    if (closed) { // accepted just before the listener closed: it goes with the rest
                        s.close();
                        return;
                    }
                    sockets.add(s);
                }
                connections.incrementAndGet();
                Thread t = new Thread(() -> serve(s), "stub-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setTcpNoDelay(true);
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            ByteArrayOutputStream pending = new ByteArrayOutputStream();
            byte[] buf = new byte[16384];
            int n = 0;
            while (true) {
                int r = in.read(buf);
                if (r < 0) {
                    return;
                }
                pending.write(buf, 0, r);
                List<String> paths = new ArrayList<>();
                byte[] all = pending.toByteArray();
                int from = 0;
                while (true) {
                    int end = indexOf(all, from);
                    if (end < 0) {
                        break;
                    }
                    String head = new String(all, from, end - from, StandardCharsets.ISO_8859_1);
                    String line = head.substring(0, head.indexOf("\r\n") < 0 ? head.length() : head.indexOf("\r\n"));
                    String[] f = line.split(" ");
                    paths.add(f.length > 1 ? f[1] : "?");
                    from = end + 4;
                }
                pending.reset();
                pending.write(all, from, all.length - from);
                if (paths.isEmpty()) {
                    continue;
                }
                maxBatch.accumulateAndGet(paths.size(), Math::max);
                ByteArrayOutputStream reply = new ByteArrayOutputStream();
                boolean close = false;
                for (String p : paths) {
                    requests.incrementAndGet();
                    byte[] a = behaviour.answer(n++, p);
                    if (a == CLOSE) {
                        close = true;
                        break;
                    }
                    if (a == SILENT) {
                        continue;
                    }
                    reply.write(a);
                }
                out.write(reply.toByteArray());
                out.flush();
                if (close) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client went away
        } finally {
            sockets.remove(s);
        }
    }

    private static int indexOf(byte[] a, int from) {
        for (int i = from; i + 3 < a.length; i++) {
            if (a[i] == '\r' && a[i + 1] == '\n' && a[i + 2] == '\r' && a[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        synchronized (sockets) { // no socket the accept loop holds outlives this
            closed = true;
            server.close();
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
