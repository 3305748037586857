package io.tickwork.server.client;

import java.io.PrintStream;

final class PingPongCommand {
  private PingPongCommand() {}

  static int run(String[] argv, PrintStream out, PrintStream err) throws InterruptedException {
    throw new UsageException("not yet");
  }
}
