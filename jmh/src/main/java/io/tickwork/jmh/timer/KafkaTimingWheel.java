package io.tickwork.jmh.timer;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.PriorityQueue;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.kafka.server.util.timer.TimerTask;
import org.apache.kafka.server.util.timer.TimerTaskEntry;
import org.apache.kafka.server.util.timer.TimingWheel;

/**
 * Kafka's hierarchical {@code TimingWheel} (kafka-server-common) driven by a virtual clock, doing
 * what {@code SystemTimer} does with a real one.
 *
 * <p>{@code SystemTimer} finds due buckets through a {@code DelayQueue} whose {@code getDelay}
 * reads the wall clock, then advances the wheel to each bucket's expiration and re-adds the
 * bucket's entries (those now due are run, the others drop to a finer level). Here the
 * {@code DelayQueue} the wheel offers its buckets to is a subclass that puts them in a plain
 * {@link PriorityQueue} ordered by the buckets' own {@code compareTo} (their expiration), and
 * {@link #expire} polls that queue against the virtual {@code now}. The wheel's constructor and
 * the bucket class are package-private, so they are reached by reflection once, at setup; per
 * operation this adds one method-handle call per due bucket (once per tick), not per timer. Cost
 * that is Kafka's own and stays in: a {@code TimerTask} and a {@code TimerTaskEntry} per timer,
 * {@code synchronized} bucket operations and an {@code AtomicInteger} count.
 */
final class KafkaTimingWheel implements ObjectHandleTimers<KafkaTimingWheel.Task> {

    private static final Constructor<TimingWheel> WHEEL;
    private static final MethodHandle EXPIRATION;
    private static final MethodHandle FLUSH;

    static {
        try {
            WHEEL = TimingWheel.class.getDeclaredConstructor(
                    long.class, int.class, long.class, AtomicInteger.class, DelayQueue.class);
            WHEEL.setAccessible(true);
            Class<?> list = Class.forName("org.apache.kafka.server.util.timer.TimerTaskList");
            Method expiration = list.getDeclaredMethod("getExpiration");
            expiration.setAccessible(true);
            Method flush = list.getDeclaredMethod("flush", Consumer.class);
            flush.setAccessible(true);
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            EXPIRATION = lookup.unreflect(expiration).asType(MethodType.methodType(long.class, Delayed.class));
            FLUSH = lookup.unreflect(flush).asType(MethodType.methodType(void.class, Delayed.class, Consumer.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The buckets the wheel schedules, by expiration, instead of a wall-clock DelayQueue. */
    @SuppressWarnings("serial")
    private static final class VirtualDelayQueue extends DelayQueue<Delayed> {
        final PriorityQueue<Delayed> buckets = new PriorityQueue<>();

        @Override
        public boolean offer(Delayed bucket) {
            return buckets.offer(bucket);
        }
    }

    /**
     * A timer, as its user holds it. {@code pending} answers {@link KafkaTimingWheel#cancel}: Kafka's own
     * {@code cancel()} returns nothing, and a user that must not count a fired timer as cancelled
     * keeps such a flag.
     */
    static final class Task extends TimerTask {
        final Object payload;
        boolean pending = true;

        Task(Object payload) {
            super(0);
            this.payload = payload;
        }

        @Override
        public void run() {}
    }

    private final AtomicInteger count = new AtomicInteger();
    private final VirtualDelayQueue queue = new VirtualDelayQueue();
    private final TimingWheel wheel;
    private final Consumer<Object> sink;
    private final Consumer<TimerTaskEntry> reinsert = this::addEntry;
    private int fired;

    /**
     * {@code wheelSize} ticks of 1 unit on the finest level: 20 is {@code SystemTimer}'s default;
     * 1,024 holds the deadlines of every workload but the sparse one on that level, as the other
     * wheels do.
     */
    KafkaTimingWheel(Consumer<Object> sink, int wheelSize) {
        this.sink = sink;
        try {
            this.wheel = WHEEL.newInstance(1L, wheelSize, 0L, count, queue);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code SystemTimer.addTimerTaskEntry}, with the executor replaced by the sink. */
    private void addEntry(TimerTaskEntry entry) {
        if (!wheel.add(entry) && !entry.cancelled()) {
            Task task = (Task) entry.timerTask;
            task.pending = false;
            sink.accept(task.payload);
            fired++;
        }
    }

    @Override
    public Task schedule(long deadline, Object payload) {
        Task task = new Task(payload);
        addEntry(new TimerTaskEntry(task, deadline));
        return task;
    }

    @Override
    public boolean cancel(Task task) {
        if (!task.pending) {
            return false;
        }
        task.pending = false;
        task.cancel(); // unlinks its entry from its bucket and decrements the count
        return true;
    }

    @Override
    public int expire(long now) {
        fired = 0;
        PriorityQueue<Delayed> buckets = queue.buckets;
        try {
            Delayed bucket;
            while ((bucket = buckets.peek()) != null) {
                long expiration = (long) EXPIRATION.invokeExact(bucket);
                if (expiration > now) {
                    break;
                }
                buckets.poll();
                wheel.advanceClock(expiration);
                FLUSH.invokeExact(bucket, reinsert);
            }
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        wheel.advanceClock(now);
        return fired;
    }

    @Override
    public int size() {
        return count.get();
    }
}
