package io.tickwork.jmh.scheduler;

import org.openjdk.jmh.annotations.Fork;

/**
 * {@link VirtualThreadBenchmark} on one carrier thread, the shape of the schedulers' 1-thread rows,
 * so that one run of the suite measures both side by side (the base class uses the JDK's default,
 * a carrier per core).
 */
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-Djdk.virtualThreadScheduler.parallelism=1"})
public class VirtualThreadOneCarrierBenchmark extends VirtualThreadBenchmark {}
