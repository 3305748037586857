package io.tickwork.jmh.scheduler;

import org.openjdk.jmh.annotations.Fork;

/**
 * {@link KilimTimerBenchmark} under {@code -XX:+UseParallelGC}, for every scheduler alike; why a second
 * collector is worth a row of its own: see {@link KilimSwitchParallelGcBenchmark}.
 */
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseParallelGC"})
public class KilimTimerParallelGcBenchmark extends KilimTimerBenchmark {}
