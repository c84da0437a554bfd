package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.maintenance.ArchiveHistoryPurger;
import io.timelinearchive.archive.maintenance.LsmHistorySettings;
import io.timelinearchive.archive.maintenance.MergeSettings;
import io.timelinearchive.config.Setting;
import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.select.ArchivalPolicy;
import io.timelinearchive.select.MetadataTableRules;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * How the archiver writes: the settings of a run beyond what it selects ({@link ArchivalPolicy}).
 *
 * @param owner who holds the lock, as written in the lock file: host, process and a random id
 * @param archivalBatch {@link #ARCHIVAL_BATCH}
 * @param failOnArchivingError {@link #FAIL_ON_ARCHIVING}
 * @param readParallelism {@link #READ_PARALLELISM}
 * @param lockLease {@link #LOCK_LEASE}
 * @param maxArchiveFileBytes {@link #MAX_FILE_BYTES}
 * @param writeBufferBytes {@link #WRITE_BUFFER_BYTES}
 * @param historyMaxAge {@link ArchiveHistoryPurger#MAX_AGE}
 * @param merge merging of small archive files ({@code hoodie.archive.merge.*})
 */
public record ArchiverSettings(
    String owner,
    int archivalBatch,
    boolean failOnArchivingError,
    int readParallelism,
    Duration lockLease,
    long maxArchiveFileBytes,
    long writeBufferBytes,
    Optional<Duration> historyMaxAge,
    MergeSettings merge) {

  public static final Setting<Integer> ARCHIVAL_BATCH =
      Setting.integer("hoodie.commits.archival.batch")
          .defaultValue(10)
          .atLeast(1)
          .doc("records per archive block")
          .build();
  public static final Setting<Boolean> FAIL_ON_ARCHIVING =
      Setting.bool("hoodie.fail.on.timeline.archiving")
          .defaultValue(true)
          .doc(
              "an unreadable selected instant file fails the run before anything is written;"
                  + " false archives only what is older and warns")
          .build();
  public static final Setting<Integer> READ_PARALLELISM =
      Setting.integer("archive.read.parallelism")
          .defaultValue(16)
          .between(1, 256)
          .doc("instant files read at once")
          .build();
  public static final Setting<Duration> LOCK_LEASE =
      Setting.duration("archive.lock.lease")
          .defaultValue(Duration.ofMinutes(10))
          .atLeast(Duration.ofSeconds(1))
          .doc("lease of the archive lock; a holder past it stops before deleting")
          .build();
  public static final Setting<Long> MAX_FILE_BYTES =
      Setting.size("archive.file.max-bytes")
          .defaultValue(512L << 20)
          .atLeast(1024L)
          .doc(
              "start a new archive file past this size (stores with append); also the most one"
                  + " merge puts in a file")
          .build();
  public static final Setting<Long> WRITE_BUFFER_BYTES =
      Setting.size("archive.write.buffer-bytes")
          .defaultValue(16L << 20)
          .atLeast(1L)
          .doc("encoded archive bytes a run holds before writing them, so memory stays bounded")
          .build();

  /** Every setting of the archiver: what it selects, and how it writes. */
  public static final List<Setting<?>> SETTINGS = settings();

  /**
   * Where the archiver's settings live: {@code archive.*} is ours alone; {@code hoodie.*} is
   * Hudi's, of which we read some.
   */
  public static final List<SettingNamespace> NAMESPACES =
      List.of(
          SettingNamespace.exclusive(
              "archive.", SETTINGS.stream().filter(s -> s.key().startsWith("archive.")).toList()),
          SettingNamespace.shared(
              "hoodie.", SETTINGS.stream().filter(s -> s.key().startsWith("hoodie.")).toList()));

  public ArchiverSettings {
    requireNonNull(owner, "owner is null");
    ARCHIVAL_BATCH.checked(archivalBatch);
    READ_PARALLELISM.checked(readParallelism);
    LOCK_LEASE.checked(requireNonNull(lockLease, "lockLease is null"));
    MAX_FILE_BYTES.checked(maxArchiveFileBytes);
    WRITE_BUFFER_BYTES.checked(writeBufferBytes);
    requireNonNull(historyMaxAge, "historyMaxAge is null");
    requireNonNull(merge, "merge is null");
  }

  /**
   * Reads the write settings of {@code config}; other keys are ignored.
   *
   * @throws IllegalArgumentException naming the key and the value when a value is malformed or out
   *     of range
   */
  public static ArchiverSettings fromConfig(Map<String, String> config) {
    requireNonNull(config, "config is null");
    return new ArchiverSettings(
        defaultOwner(),
        ARCHIVAL_BATCH.get(config),
        FAIL_ON_ARCHIVING.get(config),
        READ_PARALLELISM.get(config),
        LOCK_LEASE.get(config),
        MAX_FILE_BYTES.get(config),
        WRITE_BUFFER_BYTES.get(config),
        ArchiveHistoryPurger.MAX_AGE.find(config),
        MergeSettings.fromConfig(config));
  }

  private static List<Setting<?>> settings() {
    List<Setting<?>> all = new ArrayList<>(ArchivalPolicy.SETTINGS);
    all.addAll(
        List.of(
            ARCHIVAL_BATCH,
            FAIL_ON_ARCHIVING,
            ArchiveHistoryPurger.MAX_AGE,
            READ_PARALLELISM,
            LOCK_LEASE,
            MAX_FILE_BYTES,
            WRITE_BUFFER_BYTES));
    all.addAll(MergeSettings.SETTINGS);
    all.addAll(LsmHistorySettings.SETTINGS);
    all.addAll(MetadataTableRules.SETTINGS);
    return List.copyOf(all);
  }

  private static String defaultOwner() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      host = "unknown-host";
    }
    String pid = ManagementFactory.getRuntimeMXBean().getName().split("@")[0];
    return host + "/" + pid + "/" + UUID.randomUUID().toString().substring(0, 8);
  }
}
