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
        while (!server.isClosed()) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException | RuntimeException | Error e) {
                if (!server.isClosed()) {
                    // no descriptor for it, say: the server stops serving (its descriptors freed)
                    // and the run says so
                    failure = e;
                    for (Socket open : sockets) {
                        try {
                            open.close();
                        } catch (IOException ignored) {
                            // closing
                        }
                    }
                }
                return;
            }
            sockets.add(s);
            Thread t = threads.newThread(() -> serve(s));
            t.start();
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
            try {
                s.close();
            } catch (IOException ignored) {
                // closing
            }
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
