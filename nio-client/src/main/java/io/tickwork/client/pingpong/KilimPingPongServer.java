package io.tickwork.client.pingpong;

import io.tickwork.client.common.UsageException;
import io.tickwork.scheduler.RunLoopScheduler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import kilim.Mailbox;
import kilim.Pausable;
import kilim.Task;

/**
 * The {@code kilim} ping-pong model: a Kilim coroutine per connection on tickwork's {@link
 * RunLoopScheduler}, written as straight-line code (read, write "Pong", repeat) that pauses
 * instead of blocking. One I/O thread owns a selector: it accepts, and when a connection a
 * coroutine waits on becomes ready it clears the interest and posts to the coroutine's mailbox,
 * which resumes it on its home run loop. A coroutine that finds no data re-arms its interest
 * (queued to the I/O thread, which applies it and wakes up) and pauses on the mailbox.
 *
 * <p>Cost per round trip beyond {@code nio}: a cross-thread resumption (run-loop inbox, an
 * unpark if the loop sleeps) and a selector wake-up to re-arm: the price of writing blocking-style
 * code without a thread per connection. Memory: a paused coroutine keeps only its Kilim fiber
 * state, not a thread stack.
 */
final class KilimPingPongServer implements PingPongServer {
    private static final byte[] PONG = {'P', 'o', 'n', 'g'};

    private final int loops;
    private final ConcurrentLinkedQueue<Conn> rearm = new ConcurrentLinkedQueue<>();
    private RunLoopScheduler scheduler;
    private ServerSocketChannel server;
    private Selector selector;
    private Thread io;
    private volatile boolean serving = true;
    private volatile Throwable failure;

    KilimPingPongServer(int loops) {
        if (loops < 1 || loops > RunLoopScheduler.Builder.MAX_THREADS) {
            throw new UsageException(
                    "--server-threads must be 1.." + RunLoopScheduler.Builder.MAX_THREADS + ": " + loops);
        }
        this.loops = loops;
    }

    @Override
    public InetSocketAddress start(InetSocketAddress bind) throws IOException {
        scheduler = RunLoopScheduler.builder()
                .threads(loops)
                .timers("wheel-linked-array")
                .name("pingpong-kilim")
                .daemon(true)
                .build();
        selector = Selector.open();
        server = ServerSocketChannel.open();
        server.bind(bind, 4096);
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        io = new Thread(this::ioLoop, "pingpong-kilim-io");
        io.setDaemon(true);
        io.start();
        return (InetSocketAddress) server.getLocalAddress();
    }

    @Override
    public Throwable failure() {
        return failure;
    }

    private void ioLoop() {
        try {
            while (serving) {
                selector.select();
                Conn c;
                while ((c = rearm.poll()) != null) {
                    if (c.key.isValid()) {
                        c.key.interestOps(c.wanted);
                    }
                }
                Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey k = it.next();
                    it.remove();
                    if (!k.isValid()) {
                        continue;
                    }
                    if (k.isAcceptable()) {
                        accept();
                    } else {
                        Conn conn = (Conn) k.attachment();
                        k.interestOps(0);
                        conn.ready.putnb(Boolean.TRUE);
                    }
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            if (serving) {
                failure = e; // an accept or the selector failed: close() cleans up
            }
        } finally {
            for (SelectionKey k : selector.keys()) {
                try {
                    k.channel().close();
                } catch (IOException ignored) {
                    // closing
                }
            }
        }
    }

    private void accept() throws IOException {
        SocketChannel ch;
        while ((ch = server.accept()) != null) {
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            Conn c = new Conn(ch);
            c.key = ch.register(selector, 0, c);
            scheduler.start(c);
        }
    }

    @Override
    public void close() throws IOException {
        serving = false;
        if (selector != null) {
            selector.wakeup();
        }
        if (io != null) {
            try {
                io.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (server != null) {
            server.close();
        }
        if (selector != null) {
            selector.close();
        }
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }

    /** One connection's coroutine. */
    final class Conn extends Task<Object> {
        final SocketChannel ch;
        final Mailbox<Boolean> ready = new Mailbox<>(1, 1);
        final ByteBuffer in = ByteBuffer.allocate(256);
        final ByteBuffer out = ByteBuffer.allocate(256);
        SelectionKey key;
        volatile int wanted;

        Conn(SocketChannel ch) {
            this.ch = ch;
        }

        @Override
        public void execute() throws Pausable {
            try {
                int partial = 0;
                while (true) {
                    in.clear();
                    int n = ch.read(in);
                    if (n < 0) {
                        break;
                    }
                    if (n == 0) {
                        await(SelectionKey.OP_READ);
                        continue;
                    }
                    int bytes = partial + n;
                    partial = bytes & 3;
                    for (int i = bytes >>> 2; i > 0; i--) {
                        if (!out.hasRemaining()) {
                            return; // 64 pongs owed and unread: the client does not read, drop it
                        }
                        out.put(PONG);
                    }
                    out.flip();
                    while (out.hasRemaining()) {
                        if (ch.write(out) == 0) {
                            await(SelectionKey.OP_WRITE);
                        }
                    }
                    out.clear();
                }
            } catch (IOException e) {
                // the peer went away
            } finally {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // closing
                }
            }
        }

        /** Pauses this coroutine until the I/O thread sees {@code op} ready on its channel. */
        private void await(int op) throws Pausable, IOException {
            if (!serving || !key.isValid()) {
                throw new IOException("server closed");
            }
            wanted = op;
            rearm.add(this);
            selector.wakeup();
            ready.get();
        }
    }
}
