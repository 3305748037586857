package io.tickwork.jmh.timer;

import org.openjdk.jmh.infra.Blackhole;

/**
 * The smallest timer API every subject of the timer benchmarks can offer on a virtual clock:
 * tickwork's four {@code TimerQueue}s and the peers (Agrona, JDK {@code PriorityQueue},
 * {@code TreeMap}, Kafka's {@code TimingWheel}). Each expired timer goes to the {@link Blackhole}
 * given at creation (tickwork and the JDK structures hand out a payload object, Agrona its timer
 * id, Kafka its task), so no subject can have its expiry path eliminated.
 *
 * <p>Handles are longs. Subjects whose natural handle is an object (the JDK structures, Kafka)
 * remember only the object of their latest {@link #schedule}, which is all W3 (schedule, then
 * cancel that timer) needs; cancelling any other handle throws.
 */
interface TimerAdapter {

    long schedule(long deadline);

    boolean cancel(long handle);

    /** Hands every timer due at {@code now} to the blackhole; returns how many. */
    int expire(long now);

    int size();
}
