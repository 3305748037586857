package io.tickwork.client.pingpong;

import java.io.Closeable;
import java.io.IOException;
import java.util.function.BooleanSupplier;

/**
 * One client loop's blocking connect, which a stop from another thread cuts short by closing its
 * channel. The loop publishes the channel, then reads the stop flag; the stop sets the flag, then
 * reads the channel: each writes a volatile and then reads the other's, so at least one sees the
 * other, and a connect never starts unseen by a stop that came before it.
 *
 * <p>Thread safety: {@link #begin} and {@link #end} from the loop's thread, {@link #cut} from any.
 */
final class ConnectUnderWay {
    private volatile Closeable channel;

    /**
     * Publishes {@code ch} as about to connect; returns false, having closed it, if {@code stopped}
     * (read after the publication) says the run was stopped: then do not connect.
     */
    boolean begin(Closeable ch, BooleanSupplier stopped) throws IOException {
        channel = ch;
        if (stopped.getAsBoolean()) {
            channel = null;
            ch.close();
            return false;
        }
        return true;
    }

    /** The connect is over, however it ended. */
    void end() {
        channel = null;
    }

    /** Whether a connect is under way now. */
    boolean underWay() {
        return channel != null;
    }

    /** For a stop, after it set the flag {@link #begin} reads: closes the channel of a connect under way. */
    void cut() {
        Closeable ch = channel;
        if (ch != null) {
            try {
                ch.close(); // a blocking connect on it ends at once
            } catch (IOException ignored) {
                // closed either way
            }
        }
    }
}
