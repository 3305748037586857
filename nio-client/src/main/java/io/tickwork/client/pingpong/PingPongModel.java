package io.tickwork.client.pingpong;

import io.tickwork.client.common.UsageException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadFactory;

/**
 * The ping-pong server models: how a server maps connections to threads.
 *
 * <ul>
 *   <li>{@code nio}: one selector thread for all connections (non-blocking, event loop).
 *   <li>{@code threads}: a platform thread per connection, blocking reads and writes.
 *   <li>{@code virtual}: a virtual thread per connection, the same blocking code (JDK 21+; the
 *       code is compiled for 17, so the factory is looked up reflectively).
 *   <li>{@code kilim}: a Kilim coroutine per connection on tickwork's scheduler, see {@link
 *       KilimPingPongServer}.
 * </ul>
 */
enum PingPongModel {
    NIO("selector threads (--server-threads), non-blocking"),
    THREADS("a platform thread per connection, blocking I/O"),
    VIRTUAL("a virtual thread per connection, blocking I/O (JDK 21+)"),
    KILIM("a Kilim coroutine per connection on tickwork's RunLoopScheduler, one I/O selector");

    final String description;

    PingPongModel(String description) {
        this.description = description;
    }

    String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Null if available on this JVM, else the reason it is not. */
    String unavailableReason() {
        if (this == VIRTUAL && VirtualThreads.FACTORY == null) {
            return "virtual threads need JDK 21 or later; this is JDK "
                    + Runtime.version().feature();
        }
        return null;
    }

    /**
     * A new, unstarted server of this model with {@code serverThreads} selector threads ({@code
     * nio}) or run loops ({@code kilim}; the others make a thread per connection). With {@code
     * spin}, the {@code nio} loops busy-poll; the other models block by construction and ignore
     * it.
     */
    PingPongServer create(int serverThreads, boolean spin) {
        String why = unavailableReason();
        if (why != null) {
            throw new UsageException("pingpong model " + id() + " is unavailable: " + why);
        }
        return switch (this) {
            case NIO -> new NioPingPongServer(serverThreads, spin);
            case THREADS ->
                new BlockingPingPongServer("threads", r -> {
                    Thread t = new Thread(r);
                    t.setDaemon(true);
                    return t;
                });
            case VIRTUAL -> new BlockingPingPongServer("virtual", VirtualThreads.FACTORY);
            case KILIM -> new KilimPingPongServer(serverThreads);
        };
    }

    /** One model by its id; {@code orAll} says whether the command also takes "all" (the error says so). */
    static PingPongModel parse(String s, boolean orAll) {
        for (PingPongModel m : values()) {
            if (m.id().equals(s.toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        throw new UsageException(
                "--model must be one of nio, threads, virtual, kilim" + (orAll ? " (or all)" : "") + ": " + s);
    }

    static List<PingPongModel> available() {
        List<PingPongModel> out = new ArrayList<>();
        for (PingPongModel m : values()) {
            if (m.unavailableReason() == null) {
                out.add(m);
            }
        }
        return out;
    }

    /** {@code Thread.ofVirtual().factory()} when the running JDK has it, looked up at run time. */
    static final class VirtualThreads {
        static final ThreadFactory FACTORY = lookup();

        private VirtualThreads() {}

        private static ThreadFactory lookup() {
            try {
                Class<?> builder = Class.forName("java.lang.Thread$Builder");
                Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
                MethodHandles.Lookup l = MethodHandles.publicLookup();
                MethodHandle of = l.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtual));
                MethodHandle factory = l.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class));
                return (ThreadFactory) factory.invoke(of.invoke());
            } catch (Throwable e) {
                return null; // JDK < 21 (or preview-only 19/20): the model is unavailable
            }
        }
    }
}
