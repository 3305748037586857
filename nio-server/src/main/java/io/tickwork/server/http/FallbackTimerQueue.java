package io.tickwork.server.http;

import io.tickwork.primitives.timer.TimerQueue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * A binary-heap {@link TimerQueue}, exact, with lazy deletion of cancelled timers: the queue the
 * server uses when no {@code TimerKind} is given. O(log n) schedule and expire, O(1) cancel.
 * Not thread safe (one loop thread), as the contract says.
 */
final class FallbackTimerQueue<T> implements TimerQueue<T> {
    private static final class Entry<T> {
        final long deadline, handle;
        final T payload;

        Entry(long deadline, long handle, T payload) {
            this.deadline = deadline;
            this.handle = handle;
            this.payload = payload;
        }
    }

    private final PriorityQueue<Entry<T>> heap = new PriorityQueue<>((a, b) -> a.deadline != b.deadline
            ? Long.compare(a.deadline, b.deadline) : Long.compare(a.handle, b.handle));
    private final HashMap<Long, Entry<T>> live = new HashMap<>();
    private long nextHandle = 1;
    private long maxNow = Long.MIN_VALUE;

    @Override
    public long schedule(long deadline, T payload) {
        if (payload == null) {
            throw new NullPointerException("payload");
        }
        Entry<T> e = new Entry<>(deadline, nextHandle++, payload);
        heap.add(e);
        live.put(e.handle, e);
        return e.handle;
    }

    @Override
    public boolean cancel(long handle) {
        return live.remove(handle) != null;
    }

    @Override
    public int expire(long now, Consumer<? super T> consumer) {
        maxNow = Math.max(maxNow, now);
        List<Entry<T>> due = new ArrayList<>();
        while (!heap.isEmpty() && heap.peek().deadline <= maxNow) {
            Entry<T> e = heap.poll();
            if (live.containsKey(e.handle)) {
                due.add(e);
            }
        }
        int fired = 0;
        for (int i = 0; i < due.size(); i++) {
            Entry<T> e = due.get(i);
            if (live.remove(e.handle) == null) {
                continue; // cancelled by an earlier consumer call
            }
            try {
                consumer.accept(e.payload);
                fired++;
            } catch (RuntimeException | Error x) {
                for (int k = i + 1; k < due.size(); k++) {
                    heap.add(due.get(k));
                }
                throw x;
            }
        }
        return fired;
    }

    @Override
    public long nextDeadline() {
        while (!heap.isEmpty() && !live.containsKey(heap.peek().handle)) {
            heap.poll();
        }
        return heap.isEmpty() ? NO_DEADLINE : heap.peek().deadline;
    }

    @Override
    public int size() {
        return live.size();
    }
}
