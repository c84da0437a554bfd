package io.timelinearchive.cli;

import io.timelinearchive.archive.TimelineArchiver;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/** The {@code --conf KEY=VALUE} settings of a command line, in the order given. */
final class ConfOptions {
  private ConfOptions() {}

  /**
   * The settings, checked against those that exist: a misspelt key of ours fails; keys nothing
   * reads (a whole Hudi write config's) are listed once under {@code --verbose}. The command's
   * {@link FailFastDefaults} fill in the storage timeouts not given.
   *
   * @throws IllegalArgumentException naming the setting that is not {@code KEY=VALUE}, or unknown
   */
  static Map<String, String> parse(List<String> settings, CommandSpec spec) {
    return checked(parse(settings), spec);
  }

  /** As {@link #parse(List, CommandSpec)}, for settings gathered from options too. */
  static Map<String, String> checked(Map<String, String> config, CommandSpec spec) {
    List<String> ignored = TimelineArchiver.checkKeys(config);
    if (!ignored.isEmpty()
        && spec.root().userObject() instanceof TimelineArchiveCommand root
        && root.verbose) {
      PrintWriter err = spec.commandLine().getErr();
      err.println("not read by timeline-archive, ignored: " + String.join(", ", ignored));
      err.flush();
    }
    return FailFastDefaults.under(config);
  }

  /**
   * @throws IllegalArgumentException naming the setting that is not {@code KEY=VALUE}
   */
  static Map<String, String> parse(List<String> settings) {
    Map<String, String> config = new LinkedHashMap<>();
    for (String setting : settings) {
      int eq = setting.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "invalid --conf '"
                + setting
                + "': expected KEY=VALUE, e.g. hoodie.keep.min.commits=20");
      }
      config.put(setting.substring(0, eq).strip(), setting.substring(eq + 1));
    }
    return config;
  }
}
