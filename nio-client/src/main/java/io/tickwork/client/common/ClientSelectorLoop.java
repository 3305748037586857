package io.tickwork.client.common;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The selector loop of one load-client thread. It owns a {@link Selector}; its owner, a {@link
 * Handler}, owns the connections and everything done with them. Each turn:
 *
 * <ol>
 *   <li>reads the clock and calls {@link Handler#beforeSelect}: the owner's time-driven work
 *       (deadlines, ramps, sends that are due), which returns the {@link System#nanoTime()} of its
 *       next deadline, or ends the loop with {@link #stop()};
 *   <li>waits for I/O until that deadline, or only polls ({@code selectNow}) when the deadline has
 *       passed or in {@link Wait#SPIN} mode, and hands each ready key to {@link Handler#ready};
 *   <li>calls {@link Handler#afterSelect}: the work that follows a batch of events (flushing what
 *       the events queued, timers).
 * </ol>
 *
 * <p>Ready keys are handled through {@link Selector#select(Consumer, long)}: no selected-key set,
 * no iterator, nothing allocated per event. The action runs inside the select, so the owner may
 * close channels, cancel keys, change interest sets and register channels from {@link
 * Handler#ready}, but must not select.
 *
 * <p>Clock: with {@link Clock#PER_TURN} the loop reads {@link System#nanoTime()} once after the
 * wait and passes that reading to every ready key of the turn and to {@code afterSelect}; with
 * {@link Clock#PER_KEY} it reads the clock for each ready key (for per-event timings such as round
 * trips), and {@code afterSelect} gets the last key's reading, or the turn's first reading if no
 * key was ready. Cost per turn: one clock read at the top, one select call, and one clock read
 * after the wait ({@code PER_TURN}) or one per ready key ({@code PER_KEY}).
 *
 * <p>Timing: {@code Selector.select(long)} counts in milliseconds, so a wait is at least 1 ms and a
 * deadline is met within about 1 ms (poll with {@link Wait#SPIN} for less).
 *
 * <p>Thread safety: {@link #run}, {@link #register} and {@link #keys} belong to the owner's thread;
 * {@link #stop()} may be called from any thread. {@link #close()} closes the selector, not the
 * channels: closing them is the owner's job.
 */
public final class ClientSelectorLoop implements Closeable {

    /** {@link Handler#beforeSelect} has no deadline: wait until a key is ready or {@link #stop()}. */
    public static final long NO_DEADLINE = Long.MAX_VALUE;

    /** How a turn waits for I/O. */
    public enum Wait {
        /** Sleep in the selector until the deadline or an event. */
        SLEEP,
        /** Poll with {@code selectNow} every turn: a core busy, the lowest wake-up latency. */
        SPIN
    }

    /** How often the clock is read for the ready keys; see the class comment. */
    public enum Clock {
        PER_TURN,
        PER_KEY
    }

    /** The owner of the loop's connections; its methods run on the loop's thread. */
    public interface Handler {
        /**
         * The owner's time-driven work for this turn, before the wait.
         *
         * @param now {@link System#nanoTime()} at the start of the turn
         * @return the {@code nanoTime} of the owner's next deadline ({@link #NO_DEADLINE} for none)
         */
        long beforeSelect(long now);

        /** One ready key; {@code now} is the clock reading for it (see {@link Clock}). */
        void ready(SelectionKey key, long now);

        /** The work that follows the turn's ready keys; by default none. */
        default void afterSelect(long now) {}
    }

    private final Selector selector;
    private final Handler handler;
    private final boolean spin;
    private final boolean clockPerKey;
    /** The action handed to the selector: one object for the loop's life, none per event. */
    private final Consumer<SelectionKey> dispatch = this::dispatch;

    private volatile boolean stopped;
    private long keyClock;
    private boolean keyClockRead;

    /** Opens the selector; {@link #close()} closes it. */
    public ClientSelectorLoop(Handler handler, Wait wait, Clock clock) throws IOException {
        this.handler = handler;
        this.spin = wait == Wait.SPIN;
        this.clockPerKey = clock == Clock.PER_KEY;
        this.selector = Selector.open();
    }

    /** Registers a channel with this loop's selector; owner's thread only. */
    public SelectionKey register(SelectableChannel channel, int ops, Object attachment) throws ClosedChannelException {
        return channel.register(selector, ops, attachment);
    }

    /** The registered keys (the selector's key set: not thread safe, not to be changed). */
    public Set<SelectionKey> keys() {
        return selector.keys();
    }

    /**
     * Runs turns until {@link #stop()}. Returns normally when stopped; a failure of the selector
     * itself ends the loop with its {@link IOException}, the channels still registered and open.
     */
    public void run() throws IOException {
        while (!stopped) {
            long now = System.nanoTime();
            long deadline = handler.beforeSelect(now);
            if (stopped) {
                return;
            }
            keyClock = now;
            keyClockRead = false;
            if (spin) {
                selector.selectNow(dispatch);
            } else if (deadline == NO_DEADLINE) {
                selector.select(dispatch);
            } else if (deadline - now <= 0) {
                selector.selectNow(dispatch);
            } else {
                selector.select(dispatch, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - now)));
            }
            handler.afterSelect(clockPerKey || keyClockRead ? keyClock : System.nanoTime());
        }
    }

    private void dispatch(SelectionKey key) {
        long now;
        if (clockPerKey || !keyClockRead) {
            now = System.nanoTime();
            keyClock = now;
            keyClockRead = true;
        } else {
            now = keyClock;
        }
        handler.ready(key, now);
    }

    /** Ends the current wait, or makes the next one return at once. Any thread. */
    public void wakeup() {
        selector.wakeup();
    }

    /**
     * Ends the loop: {@link #run} returns at the start of its next turn, or after the current wait
     * (woken up). Any thread; idempotent.
     */
    public void stop() {
        stopped = true;
        selector.wakeup();
    }

    @Override
    public void close() throws IOException {
        selector.close();
    }
}
