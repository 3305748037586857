package io.tickwork.jmh.scheduler;

import org.openjdk.jmh.annotations.Fork;

/**
 * {@link VirtualThreadBenchmark} on one carrier thread, the shape of the schedulers' 1-thread rows,
 * so that one run of the suite measures both side by side (the base class uses the JDK's default,
 * a carrier per core).
 *
 * <p>One carrier is not one thread: a timed park ({@code sleepExpirations}) is armed and fired by
 * a thread of the JDK's beside the carrier (JDK 21's {@code VirtualThread-unparker}, JDK 25's
 * {@code delayScheduler} of the carrier pool), which may run on another core. The schedulers'
 * 1-thread rows keep their timers on the loop thread itself (tickwork), or arm them from it
 * (Kilim's timer service), so that row gives the virtual threads a second thread the others lack.
 */
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-Djdk.virtualThreadScheduler.parallelism=1"})
public class VirtualThreadOneCarrierBenchmark extends VirtualThreadBenchmark {}
