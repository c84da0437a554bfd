package io.timelinearchive.storage.hdfs;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.ConfigCheck;
import io.timelinearchive.config.Setting;
import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.config.ValueParser.InvalidValueException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;

/**
 * The settings of the Hadoop backend, read from the keys of the archiver's config that start with
 * {@code hadoop.}.
 *
 * <p>{@link #SETTINGS} are ours. Every other {@code hadoop.}-prefixed key is a Hadoop setting with
 * the prefix stripped ({@code hadoop.fs.defaultFS} sets {@code fs.defaultFS}; Hadoop's own {@code
 * hadoop.*} keys are therefore written {@code hadoop.hadoop.*}). They override the default
 * resources on the classpath ({@code core-site.xml}, {@code hdfs-site.xml}).
 *
 * @param schemes the URI schemes routed through Hadoop: {@code hdfs}, {@code viewfs} and those of
 *     {@link #SCHEMES}
 * @param leaseRecoveryTimeout {@link #LEASE_RECOVERY_TIMEOUT}
 * @param hadoopProperties Hadoop settings, prefix stripped; values may be secrets
 */
record HdfsConfig(
    Set<String> schemes, Duration leaseRecoveryTimeout, Map<String, String> hadoopProperties) {
  static final String PREFIX = "hadoop.";
  static final Set<String> DEFAULT_SCHEMES = Set.of("hdfs", "viewfs");

  static final Setting<Set<String>> SCHEMES =
      Setting.of("hadoop.schemes", HdfsConfig::parseSchemes)
          .formattedWith(schemes -> String.join(",", schemes))
          .defaultValue(Set.of())
          .documentedDefault("none")
          .doc(
              "more URI schemes to open through Hadoop besides hdfs and viewfs, comma-separated"
                  + " (ofs,jfs); their FileSystem must be on the class path")
          .build();
  static final Setting<Duration> LEASE_RECOVERY_TIMEOUT =
      Setting.duration("hadoop.lease-recovery-timeout")
          .defaultValue(Duration.ofSeconds(10))
          .doc(
              "how long opening the archive log waits for HDFS to recover a file another writer"
                  + " left open; 0s starts the recovery and does not wait")
          .build();

  // Unset, Hadoop's own defaults apply: 20s per connection attempt, 10 retries of a refused
  // connection and 45 of a timed-out one (about 15 minutes for a NameNode that drops packets), and
  // two minutes for the answer to a call.
  static final Setting<Duration> CONNECT_TIMEOUT =
      Setting.duration("hadoop.connect-timeout")
          .between(Duration.ofMillis(1), Duration.ofMillis(Integer.MAX_VALUE))
          .documentedDefault("Hadoop's, 20s")
          .doc("opening a connection to the NameNode, each attempt (ipc.client.connect.timeout)")
          .build();
  static final Setting<Duration> REQUEST_TIMEOUT =
      Setting.duration("hadoop.request-timeout")
          .between(Duration.ofMillis(1), Duration.ofMillis(Integer.MAX_VALUE))
          .documentedDefault("Hadoop's, 2m")
          .doc("waiting for the NameNode's answer to one call (ipc.client.rpc-timeout.ms)")
          .build();
  static final Setting<Integer> CONNECT_RETRIES =
      Setting.integer("hadoop.connect-retries")
          .between(0, 100)
          .documentedDefault("Hadoop's, 10 (45 after a timeout)")
          .doc(
              "retries of a refused or timed-out connection, a second apart"
                  + " (ipc.client.connect.max.retries and ipc.client.connect.max.retries.on.timeouts)")
          .build();

  static final List<Setting<?>> SETTINGS =
      List.of(SCHEMES, LEASE_RECOVERY_TIMEOUT, CONNECT_TIMEOUT, REQUEST_TIMEOUT, CONNECT_RETRIES);

  /**
   * Our keys among Hadoop's: a key that is none of ours is handed to Hadoop, unless it looks like a
   * misspelling of one of ours.
   */
  static final SettingNamespace NAMESPACE = SettingNamespace.passedOn(PREFIX, SETTINGS);

  /**
   * The key {@link #LEASE_RECOVERY_TIMEOUT} had, in milliseconds. Too far from the new key to be
   * taken for a misspelling of it, it would be handed to Hadoop, which ignores it, and leave the
   * default in force: refused by name instead.
   */
  private static final String RENAMED_LEASE_RECOVERY_TIMEOUT = "hadoop.lease-recovery-timeout-ms";

  private static final Pattern SCHEME = Pattern.compile("[a-z][a-z0-9+.-]*");

  HdfsConfig {
    schemes = Set.copyOf(requireNonNull(schemes, "schemes is null"));
    requireNonNull(leaseRecoveryTimeout, "leaseRecoveryTimeout is null");
    hadoopProperties = Map.copyOf(requireNonNull(hadoopProperties, "hadoopProperties is null"));
  }

  /**
   * @throws IllegalArgumentException naming the key of an invalid or unknown setting
   */
  static HdfsConfig from(Map<String, String> config) {
    requireNonNull(config, "config is null");
    if (config.containsKey(RENAMED_LEASE_RECOVERY_TIMEOUT)) {
      throw new IllegalArgumentException(
          RENAMED_LEASE_RECOVERY_TIMEOUT
              + " is now "
              + LEASE_RECOVERY_TIMEOUT.key()
              + ", a duration such as 10s or 500ms");
    }
    ConfigCheck.check(config, List.of(NAMESPACE));

    Set<String> schemes = new TreeSet<>(DEFAULT_SCHEMES);
    schemes.addAll(SCHEMES.get(config));
    Duration timeout = LEASE_RECOVERY_TIMEOUT.get(config);

    Set<String> ownKeys = SETTINGS.stream().map(Setting::key).collect(Collectors.toSet());
    Map<String, String> hadoop = new TreeMap<>();
    config.forEach(
        (key, value) -> {
          if (key.startsWith(PREFIX) && !ownKeys.contains(key)) {
            String name = key.substring(PREFIX.length());
            if (name.isEmpty() || value == null) {
              throw new IllegalArgumentException("invalid Hadoop setting '" + key + "'");
            }
            hadoop.put(name, value);
          }
        });
    CONNECT_TIMEOUT
        .find(config)
        .ifPresent(t -> setOnce(hadoop, CONNECT_TIMEOUT, "ipc.client.connect.timeout", millis(t)));
    REQUEST_TIMEOUT
        .find(config)
        .ifPresent(t -> setOnce(hadoop, REQUEST_TIMEOUT, "ipc.client.rpc-timeout.ms", millis(t)));
    CONNECT_RETRIES
        .find(config)
        .ifPresent(
            n -> {
              setOnce(hadoop, CONNECT_RETRIES, "ipc.client.connect.max.retries", n.toString());
              setOnce(
                  hadoop,
                  CONNECT_RETRIES,
                  "ipc.client.connect.max.retries.on.timeouts",
                  n.toString());
            });
    return new HdfsConfig(schemes, timeout, hadoop);
  }

  private static String millis(Duration d) {
    return Long.toString(d.toMillis());
  }

  /** Our setting as the Hadoop key it stands for; both at once would leave the winner unclear. */
  private static void setOnce(
      Map<String, String> hadoop, Setting<?> ours, String hadoopKey, String value) {
    if (hadoop.containsKey(hadoopKey)) {
      throw new IllegalArgumentException(
          ours.key() + " and " + PREFIX + hadoopKey + " both set the same thing: give one of them");
    }
    hadoop.put(hadoopKey, value);
  }

  private static Set<String> parseSchemes(String text) throws InvalidValueException {
    Set<String> schemes = new TreeSet<>();
    for (String scheme : text.split(",", -1)) {
      String s = scheme.strip().toLowerCase(Locale.ROOT);
      if (!SCHEME.matcher(s).matches()) {
        throw new InvalidValueException("is not a comma-separated list of URI schemes (ofs,jfs)");
      }
      schemes.add(s);
    }
    return schemes;
  }

  /** The default resources on the classpath, overridden by {@link #hadoopProperties}. */
  Configuration toConfiguration() {
    Configuration conf = new Configuration();
    // core-default.xml and core-site.xml are loaded by Configuration itself; the HDFS files only
    // once some HDFS class registers them, which must not depend on what the JVM loaded so far.
    conf.addResource("hdfs-default.xml");
    conf.addResource("hdfs-site.xml");
    hadoopProperties.forEach((name, value) -> conf.set(name, value, "timeline-archive config"));
    return conf;
  }

  // Values may be secrets (keys, passwords): only names are shown.
  @Override
  public String toString() {
    return "HdfsConfig[schemes="
        + new TreeSet<>(schemes)
        + ", leaseRecoveryTimeout="
        + LEASE_RECOVERY_TIMEOUT.formatted(leaseRecoveryTimeout)
        + ", hadoopProperties="
        + new TreeSet<>(hadoopProperties.keySet())
        + "]";
  }
}
