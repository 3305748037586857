package io.tickwork.server;

/**
 * SIGTERM and SIGINT handling that lets {@link Main} stop gracefully and exit 0 (a JVM ended by
 * these signals through shutdown hooks alone exits 143 or 130). Uses {@code sun.misc.Signal}
 * (module jdk.unsupported, present in every OpenJDK build); without it, shutdown hooks still
 * close the server gracefully, only the exit code differs.
 */
final class Signals {
    private Signals() {}

    @SuppressWarnings("restriction")
    static void onTermination(Runnable action) {
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), s -> action.run());
            } catch (IllegalArgumentException | LinkageError unsupported) {
                // signal not available on this platform: shutdown hooks remain
            }
        }
    }
}
