package io.tickwork.primitives.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TimerKindTest {

    @Test
    void parsesNamesIgnoringCaseAndDashes() {
        assertEquals(TimerKind.WHEEL_RING, TimerKind.parse("wheel-ring"));
        assertEquals(TimerKind.WHEEL_LINKED_ARRAY, TimerKind.parse(" Wheel_Linked_Array "));
        assertEquals(TimerKind.RB_TREE, TimerKind.parse("RB_TREE"));
        for (TimerKind k : TimerKind.values()) {
            assertEquals(k, TimerKind.parse(k.name().toLowerCase()));
        }
    }

    @Test
    void unknownNameListsTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TimerKind.parse("heap"));
        assertTrue(e.getMessage().contains("'heap'"), e.getMessage());
        for (TimerKind k : TimerKind.values()) {
            assertTrue(
                    e.getMessage().contains(k.name().toLowerCase().replace('_', '-')),
                    e.getMessage()); // as documented: wheel-ring
        }
        assertThrows(IllegalArgumentException.class, () -> TimerKind.parse(null));
    }

    @Test
    void validationNamesTheBadValue() {
        for (TimerKind k : TimerKind.values()) {
            assertMessage("tickUnits must be >= 1: 0", () -> k.create(0, 64));
            assertMessage("ticksPerWheel must be a power of 2 in [1, 2^24]: 1000", () -> k.create(1, 1000));
            assertMessage("ticksPerWheel must be a power of 2 in [1, 2^24]: 0", () -> k.create(1, 0));
            assertMessage("slotCapacity must be in [1, 2^20]: 0", () -> k.create(1, 64, 0));
            assertMessage("tickUnits must be >= 1: 0", () -> k.createLong(0, 64, 16));
            assertMessage("ticksPerWheel must be a power of 2 in [1, 2^24]: 1000", () -> k.createLong(1, 1000, 16));
            assertMessage("slotCapacity must be in [1, 2^20]: 0", () -> k.createLong(1, 64, 0));
        }
    }

    private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable call) {
        assertEquals(
                expected, assertThrows(IllegalArgumentException.class, call).getMessage());
    }

    @Test
    void createReturnsWorkingQueues() {
        for (TimerKind k : TimerKind.values()) {
            TimerQueue<String> q = k.create();
            q.schedule(3, "x");
            assertEquals(1, q.size());
            assertEquals(1, q.expire(3, s -> {}));
        }
    }
}
