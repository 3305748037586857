package io.tickwork.jmh.scheduler;

import org.openjdk.jmh.annotations.Fork;

/**
 * {@link VirtualThreadBenchmark} on two carrier threads, the shape of the schedulers' 2-thread
 * "free" rows (virtual threads cannot be pinned to a carrier), in the same run as them.
 */
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-Djdk.virtualThreadScheduler.parallelism=2"})
public class VirtualThreadTwoCarriersBenchmark extends VirtualThreadBenchmark {}
