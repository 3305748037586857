package io.tickwork.jmh.scheduler;

import org.openjdk.jmh.annotations.Fork;

/**
 * {@link KilimSwitchBenchmark} under {@code -XX:+UseParallelGC}, for every scheduler alike, so that one
 * run shows both collectors side by side.
 *
 * <p>Why a second collector: every Kilim pause allocates a fiber {@code State} and stores it into a
 * task that, with 200,000 live tasks, sits in the old generation. Under G1 (the JDK default) each
 * such old-to-young store goes through G1's post-write barrier (a StoreLoad fence, then a dirty-card
 * enqueue that concurrent refinement must process); ParallelGC's barrier is one card-table byte
 * store. Kilim's {@code ForkJoinScheduler} resumes the same task at once, so its stores mostly hit
 * a card that is already dirty and it gains far less. On a 2-core VM (JDK 17, tickwork with the
 * linked-array wheel, 1 thread) tickwork's yields ran 2.5 times as fast under ParallelGC as under
 * G1, Kilim's ForkJoin 1.3 times (measured, with every other collector and two G1 settings:
 * docs/results/scheduler-design.md).
 */
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseParallelGC"})
public class KilimSwitchParallelGcBenchmark extends KilimSwitchBenchmark {}
