package io.tickwork.scheduler;

/**
 * Test message. Not a {@code Long}: Kilim's weaver (ASM7 visitors) fails on any frame merge that
 * walks the hierarchy of {@code Long}, {@code Integer} or {@code String}, because they implement the
 * sealed {@code java.lang.constant.ConstantDesc} since JDK 12.
 */
final class Msg {
    final long value;

    Msg(long value) {
        this.value = value;
    }
}
