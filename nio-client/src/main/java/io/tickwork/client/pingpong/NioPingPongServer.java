package io.tickwork.client.pingpong;

import io.tickwork.client.common.UsageException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The {@code nio} ping-pong model: selector threads, each owning its connections end to end.
 * Thread 0 also accepts and hands new connections round-robin to the others through a queue
 * plus {@code wakeup()}. Per connection: a count of bytes toward the next ping and a small
 * direct output buffer (at most 64 pongs owed, more means the client does not read: it is
 * closed). One shared direct read buffer per thread; ready keys are handled through {@code
 * select(Consumer)}, which skips the selected-key set and its iterator: nothing is allocated
 * per ping. With {@code spin}, the loops poll with {@code selectNow} instead of sleeping in
 * {@code epoll_wait} (a core each, for the lowest wake-up latency).
 */
final class NioPingPongServer implements PingPongServer {
    private static final byte[] PONG = {'P', 'o', 'n', 'g'};
    private static final int MAX_OWED = 64;

    private final int threads;
    private final boolean spin;
    private final List<Loop> loops = new ArrayList<>();
    private ServerSocketChannel server;
    private volatile Throwable failure;

    NioPingPongServer(int threads, boolean spin) {
        this.spin = spin;
        if (threads < 1) {
            throw new UsageException("--server-threads must be >= 1: " + threads);
        }
        this.threads = threads;
    }

    @Override
    public InetSocketAddress start(InetSocketAddress bind) throws IOException {
        server = ServerSocketChannel.open();
        server.bind(bind, 4096);
        server.configureBlocking(false);
        for (int i = 0; i < threads; i++) {
            loops.add(new Loop(i));
        }
        server.register(loops.get(0).selector, SelectionKey.OP_ACCEPT);
        for (Loop l : loops) {
            l.thread.start();
        }
        return (InetSocketAddress) server.getLocalAddress();
    }

    @Override
    public Throwable failure() {
        return failure;
    }

    @Override
    public void close() throws IOException {
        for (Loop l : loops) {
            l.running = false;
            l.selector.wakeup();
        }
        for (Loop l : loops) {
            try {
                l.thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (server != null) {
            server.close();
        }
    }

    private final class Loop implements Runnable, java.util.function.Consumer<SelectionKey> {
        final Selector selector;
        final Thread thread;
        final ConcurrentLinkedQueue<SocketChannel> handoff = new ConcurrentLinkedQueue<>();
        final ByteBuffer readBuf = ByteBuffer.allocateDirect(16 * 1024);
        volatile boolean running = true;
        int next;

        Loop(int index) throws IOException {
            selector = Selector.open();
            thread = new Thread(this, "pingpong-nio-" + index);
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            try {
                while (running) {
                    if (spin) {
                        selector.selectNow(this);
                    } else {
                        selector.select(this);
                    }
                    SocketChannel fresh;
                    while ((fresh = handoff.poll()) != null) {
                        register(fresh);
                    }
                }
            } catch (IOException | RuntimeException | Error e) {
                if (running && failure == null) {
                    failure = e; // an accept or the selector failed: this loop and its connections end
                }
            } finally {
                for (SelectionKey k : selector.keys()) {
                    try {
                        k.channel().close();
                    } catch (IOException ignored) {
                        // closing
                    }
                }
                try {
                    selector.close();
                } catch (IOException | RuntimeException | Error closing) {
                    // out of descriptors, the close itself may fail (a class it loads opens a file):
                    // the server's failure says why, this one goes with it
                    Throwable first = failure;
                    if (first == null) {
                        if (running) {
                            failure = closing;
                        }
                    } else if (first != closing) {
                        try {
                            first.addSuppressed(closing);
                        } catch (RuntimeException | Error noRoom) {
                            // out of memory as well: the first failure alone is reported
                        }
                    }
                }
            }
        }

        @Override
        public void accept(SelectionKey k) {
            if (!k.isValid()) {
                return;
            }
            if (k.isAcceptable()) {
                try {
                    accept();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            } else {
                serve(k);
            }
        }

        private void accept() throws IOException {
            SocketChannel ch;
            while ((ch = server.accept()) != null) {
                Loop target = loops.get(next);
                next = (next + 1) % loops.size();
                if (target == this) {
                    register(ch);
                } else {
                    target.handoff.add(ch);
                    target.selector.wakeup();
                }
            }
        }

        private void register(SocketChannel ch) {
            try {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.register(selector, SelectionKey.OP_READ, new Conn());
            } catch (IOException e) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // closing
                }
            }
        }

        private void serve(SelectionKey k) {
            SocketChannel ch = (SocketChannel) k.channel();
            Conn c = (Conn) k.attachment();
            try {
                if (k.isReadable()) {
                    readBuf.clear();
                    int n = ch.read(readBuf);
                    if (n < 0) {
                        ch.close();
                        return;
                    }
                    int bytes = c.partial + n;
                    int pings = bytes >>> 2;
                    c.partial = bytes & 3;
                    if (c.out.position() / 4 + pings > MAX_OWED) {
                        ch.close(); // the client sends and never reads: drop it
                        return;
                    }
                    for (int i = 0; i < pings; i++) {
                        c.out.put(PONG);
                    }
                }
                if (c.out.position() > 0) {
                    c.out.flip();
                    ch.write(c.out);
                    c.out.compact();
                    int ops =
                            c.out.position() > 0 ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ;
                    if (k.interestOps() != ops) {
                        k.interestOps(ops); // only on change: each call queues an epoll update
                    }
                }
            } catch (IOException e) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // closing
                }
            }
        }
    }

    private static final class Conn {
        final ByteBuffer out = ByteBuffer.allocateDirect(MAX_OWED * 4);
        int partial;
    }
}
