package io.timelinearchive.storage.hdfs;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;

/**
 * The settings of the Hadoop backend, read from the keys of the archiver's config that start with
 * {@code hadoop.}.
 *
 * <p>Two keys are ours: {@value #SCHEMES} and {@value #LEASE_RECOVERY_TIMEOUT_MS}. Every other
 * {@code hadoop.}-prefixed key is a Hadoop setting with the prefix stripped ({@code
 * hadoop.fs.defaultFS} sets {@code fs.defaultFS}; Hadoop's own {@code hadoop.*} keys are therefore
 * written {@code hadoop.hadoop.*}). They override the default resources on the classpath ({@code
 * core-site.xml}, {@code hdfs-site.xml}).
 *
 * @param schemes the URI schemes routed through Hadoop: {@code hdfs}, {@code viewfs} and those
 *     listed in {@value #SCHEMES}
 * @param leaseRecoveryTimeout how long {@code openLog} waits for HDFS to recover a file left open
 *     by another writer before giving up
 * @param hadoopProperties Hadoop settings, prefix stripped; values may be secrets
 */
record HdfsConfig(
    Set<String> schemes, Duration leaseRecoveryTimeout, Map<String, String> hadoopProperties) {
  static final String PREFIX = "hadoop.";
  static final String SCHEMES = "hadoop.schemes";
  static final String LEASE_RECOVERY_TIMEOUT_MS = "hadoop.lease-recovery-timeout-ms";
  static final Set<String> DEFAULT_SCHEMES = Set.of("hdfs", "viewfs");
  static final Duration DEFAULT_LEASE_RECOVERY_TIMEOUT = Duration.ofSeconds(10);
  private static final Set<String> OWN_KEYS = Set.of(SCHEMES, LEASE_RECOVERY_TIMEOUT_MS);

  HdfsConfig {
    schemes = Set.copyOf(requireNonNull(schemes, "schemes is null"));
    requireNonNull(leaseRecoveryTimeout, "leaseRecoveryTimeout is null");
    hadoopProperties = Map.copyOf(requireNonNull(hadoopProperties, "hadoopProperties is null"));
  }

  /**
   * @throws IllegalArgumentException naming the key of an invalid setting
   */
  static HdfsConfig from(Map<String, String> config) {
    requireNonNull(config, "config is null");
    Set<String> schemes = new TreeSet<>(DEFAULT_SCHEMES);
    String listed = config.get(SCHEMES);
    if (listed != null) {
      for (String scheme : listed.split(",", -1)) {
        String s = scheme.strip().toLowerCase(Locale.ROOT);
        if (!s.matches("[a-z][a-z0-9+.-]*")) {
          throw new IllegalArgumentException(
              SCHEMES + " must be a comma-separated list of URI schemes, found '" + listed + "'");
        }
        schemes.add(s);
      }
    }

    Duration timeout = DEFAULT_LEASE_RECOVERY_TIMEOUT;
    String millis = config.get(LEASE_RECOVERY_TIMEOUT_MS);
    if (millis != null) {
      try {
        timeout = Duration.ofMillis(Long.parseLong(millis.strip()));
      } catch (NumberFormatException e) {
        timeout = Duration.ofMillis(-1);
      }
      if (timeout.isNegative()) {
        throw new IllegalArgumentException(
            LEASE_RECOVERY_TIMEOUT_MS
                + " must be a number of milliseconds >= 0, found '"
                + millis
                + "'");
      }
    }

    Map<String, String> hadoop = new TreeMap<>();
    config.forEach(
        (key, value) -> {
          if (key.startsWith(PREFIX) && !OWN_KEYS.contains(key)) {
            String name = key.substring(PREFIX.length());
            if (name.isEmpty() || value == null) {
              throw new IllegalArgumentException("invalid Hadoop setting '" + key + "'");
            }
            hadoop.put(name, value);
          }
        });
    return new HdfsConfig(schemes, timeout, hadoop);
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
        + leaseRecoveryTimeout
        + ", hadoopProperties="
        + new TreeSet<>(hadoopProperties.keySet())
        + "]";
  }
}
