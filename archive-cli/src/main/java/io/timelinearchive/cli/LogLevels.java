package io.timelinearchive.cli;

import java.util.List;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * The command's logging, set before any logger exists: slf4j-simple (the binding the jar ships)
 * reads its levels once, when the first logger is made, so they are system properties set from the
 * command line before picocli or a storage SDK is touched. By default ours log warnings and the
 * libraries nothing: the Azure credential chain, the Azure batch client (an ERROR line per blob a
 * batch delete finds missing, which the backend treats as done), the AWS SDK, Hadoop and Netty talk
 * to standard error about things the command reports itself, in one line. {@code --verbose} logs
 * everyone from INFO, {@code --log-level LEVEL} everyone from LEVEL. A level the user set with
 * {@code -Dorg.slf4j.simpleLogger...} stays.
 */
final class LogLevels {
  static final String OPTION = "--log-level";
  static final String VERBOSE = "--verbose";

  /** Level names slf4j-simple reads, in the order of {@code --log-level}'s help. */
  static final List<String> LEVELS = List.of("trace", "debug", "info", "warn", "error", "off");

  private static final String PREFIX = "org.slf4j.simpleLogger.";
  private static final List<String> LIBRARIES =
      List.of(
          "com.azure",
          "com.microsoft",
          "reactor",
          "io.netty",
          "software.amazon",
          "org.apache",
          "com.google",
          "io.grpc",
          "io.opencensus",
          "io.opentelemetry");

  private LogLevels() {}

  /** Sets the levels {@code args} ask for; an unknown level is left to picocli to refuse. */
  static void configure(String[] args) {
    String level = requested(args);
    boolean quietLibraries = level == null;
    String ours = level == null ? "warn" : level;
    setIfAbsent(PREFIX + "defaultLogLevel", ours);
    setIfAbsent(PREFIX + "showDateTime", "false");
    if (quietLibraries) {
      for (String library : LIBRARIES) {
        setIfAbsent(PREFIX + "log." + library, "off");
      }
    }
    // Google's clients log through java.util.logging, whose console handler prints INFO and up.
    LogManager.getLogManager().reset();
    Logger root = Logger.getLogger("");
    root.setLevel(quietLibraries ? Level.OFF : julLevel(ours));
    java.util.logging.ConsoleHandler console = new java.util.logging.ConsoleHandler();
    console.setLevel(Level.ALL);
    root.addHandler(console);
  }

  /** The level {@code args} ask for, or null for the default. */
  static String requested(String[] args) {
    String level = null;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--")) {
        break;
      }
      if (arg.equals(VERBOSE) && level == null) {
        level = "info";
      } else if (arg.equals(OPTION) && i + 1 < args.length) {
        level = known(args[i + 1], level);
      } else if (arg.startsWith(OPTION + "=")) {
        level = known(arg.substring(OPTION.length() + 1), level);
      }
    }
    return level;
  }

  private static String known(String written, String otherwise) {
    String level = written.strip().toLowerCase(Locale.ROOT);
    return LEVELS.contains(level) ? level : otherwise;
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }

  private static Level julLevel(String level) {
    return switch (level) {
      case "trace" -> Level.FINEST;
      case "debug" -> Level.FINE;
      case "info" -> Level.INFO;
      case "warn" -> Level.WARNING;
      case "error" -> Level.SEVERE;
      default -> Level.OFF;
    };
  }
}
