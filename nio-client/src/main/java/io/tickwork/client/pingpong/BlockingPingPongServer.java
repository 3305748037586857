package io.tickwork.client.pingpong;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;

/**
 * The {@code threads} and {@code virtual} ping-pong models: one thread per connection, made by
 * the given factory, running plain blocking code: read 4 bytes, write "Pong". An accept thread
 * from the same factory. Memory: a thread (stack) per connection, plus the sockets.
 *
 * <p>A connection that cannot be accepted (no descriptor) or given a thread (the factory refuses
 * or the thread cannot start) stops the server: its failure is recorded for {@link #failure()},
 * its listening socket and every connection are closed, so no client waits on a server that no
 * longer answers.
 */
final class BlockingPingPongServer implements PingPongServer {
    private static final byte[] PONG = {'P', 'o', 'n', 'g'};

    private final String name;
    private final ThreadFactory threads;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private ServerSocket server;
    private Thread acceptor;
    private volatile Throwable failure;

    BlockingPingPongServer(String name, ThreadFactory threads) {
        this.name = name;
        this.threads = threads;
    }

    @Override
    public InetSocketAddress start(InetSocketAddress bind) throws IOException {
        server = new ServerSocket();
        server.bind(bind, 4096);
        acceptor = threads.newThread(this::acceptLoop);
        acceptor.setName("pingpong-" + name + "-accept");
        acceptor.start();
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    @Override
    public Throwable failure() {
        return failure;
    }

    private void acceptLoop() {
        try {
            while (true) {
                Socket s = server.accept();
                sockets.add(s);
                try {
                    Thread t = threads.newThread(() -> serve(s));
                    if (t == null) {
                        throw new IllegalStateException("the thread factory refused a thread for a connection");
                    }
                    t.start();
                } catch (RuntimeException | Error e) {
                    sockets.remove(s);
                    closeQuietly(s);
                    throw e;
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            if (!server.isClosed()) {
                // no descriptor or no thread for a connection, say: the server stops serving, its
                // listening socket first (no connection waits in a backlog nobody accepts from),
                // then its connections, and the run says why
                failure = e;
                closeQuietly(server);
                for (Socket open : sockets) {
                    closeQuietly(open);
                }
            }
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setTcpNoDelay(true);
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] ping = new byte[4];
            while (in.readNBytes(ping, 0, 4) == 4) {
                out.write(PONG);
            }
        } catch (IOException e) {
            // the peer went away, or close(): the thread ends
        } finally {
            sockets.remove(s);
        }
    }

    @Override
    public void close() throws IOException {
        if (server != null) {
            server.close();
        }
        for (Socket s : sockets) {
            closeQuietly(s);
        }
        if (acceptor != null) {
            try {
                acceptor.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
