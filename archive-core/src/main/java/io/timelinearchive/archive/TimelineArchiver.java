package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.archive.folder.ArchiveLockedException;
import io.timelinearchive.config.ConfigCheck;
import io.timelinearchive.config.SettingNamespace;
import io.timelinearchive.format.InstantConversionException;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.ArchivalPolicy;
import io.timelinearchive.select.EffectiveRules;
import io.timelinearchive.select.MetadataTableRules;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.HoodieTable;
import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Archives a table's old instants: selects them, appends them to the archive, then deletes them
 * from the active timeline, under the archive lock. Each run keeps the invariants of the archive
 * protocol: nothing is deleted before the archive holding it is durable, pending files go before
 * completed ones, completed ones strictly oldest first, and a run interrupted anywhere is finished
 * by the next one without archiving anything twice (see {@link ArchiveRun} for the steps).
 *
 * <pre>{@code
 * try (TimelineArchiver archiver = TimelineArchiver.open("s3://bucket/tables/orders", config)) {
 *   ArchiveResult result = archiver.archiveIfRequired();
 * }
 * }</pre>
 */
public final class TimelineArchiver implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(TimelineArchiver.class);

  private final CountingMetaStorage storage;
  private final StorageLocation base;
  private final ArchivalPolicy policy;
  private final MetadataTableRules metadataTableRules;
  private final ArchiverSettings settings;
  private final Map<String, String> config;
  private final Clock clock;
  private final ArchiveListener listener;
  private final boolean ownsStorage;

  private TimelineArchiver(
      MetaStorage storage,
      boolean ownsStorage,
      StorageLocation base,
      Map<String, String> config,
      Clock clock,
      ArchiveListener listener) {
    requireNonNull(storage, "storage is null");
    this.base = requireNonNull(base, "base is null");
    this.policy = ArchivalPolicy.fromConfig(config);
    this.metadataTableRules = MetadataTableRules.fromConfig(config);
    this.settings = ArchiverSettings.fromConfig(config);
    this.config = Map.copyOf(config);
    this.clock = requireNonNull(clock, "clock is null");
    this.listener = requireNonNull(listener, "listener is null");
    this.storage = new CountingMetaStorage(storage);
    this.ownsStorage = ownsStorage;
  }

  /**
   * Opens the archiver for the table at {@code tableUri}, on the storage its scheme names.
   *
   * @param tableUri the table's base folder, e.g. {@code s3://bucket/tables/orders} or a local path
   * @param config Hudi's archival keys as written (e.g. {@code hoodie.keep.min.commits}), {@code
   *     archive.*} settings, and the storage backend's prefixed keys; other {@code hoodie.*} keys
   *     (a whole Hudi write config) are ignored
   * @return an archiver that owns the storage it opened; close it to close that
   * @throws IllegalArgumentException naming the key or URI when one is invalid or unknown
   * @throws IOException if the storage cannot be opened
   */
  public static TimelineArchiver open(String tableUri, Map<String, String> config)
      throws IOException {
    return open(tableUri, config, ArchiveListener.NONE);
  }

  /**
   * As {@link #open(String, Map)}, telling {@code listener} of each phase of a run.
   *
   * @param tableUri the table's base folder
   * @param config as for {@link #open(String, Map)}
   * @param listener told of each phase as a run enters it
   * @return an archiver that owns the storage it opened
   * @throws IOException if the storage cannot be opened
   */
  public static TimelineArchiver open(
      String tableUri, Map<String, String> config, ArchiveListener listener) throws IOException {
    StorageLocation base = StorageLocation.of(tableUri);
    checkKeys(config);
    MetaStorage storage = MetaStorages.open(base, config);
    try {
      return new TimelineArchiver(storage, true, base, config, Clock.systemUTC(), listener);
    } catch (RuntimeException e) {
      storage.close();
      throw e;
    }
  }

  /**
   * An archiver on a storage the caller opened (and closes), for tests and embedding.
   *
   * @param storage the table's storage; closing the archiver leaves it open
   * @param base the table's base folder on {@code storage}
   * @param config as for {@link #open(String, Map)}
   * @param clock what "now" is for the age-based rules
   * @param listener told of each phase as a run enters it
   * @return the archiver
   */
  public static TimelineArchiver create(
      MetaStorage storage,
      StorageLocation base,
      Map<String, String> config,
      Clock clock,
      ArchiveListener listener) {
    checkKeys(config);
    return new TimelineArchiver(storage, false, base, config, clock, listener);
  }

  /**
   * Every setting namespace an archiver on this class path reads: the archiver's own and those of
   * the storage backends found.
   *
   * @return the namespaces, the archiver's first
   */
  public static List<SettingNamespace> settingNamespaces() {
    List<SettingNamespace> namespaces = new ArrayList<>(ArchiverSettings.NAMESPACES);
    namespaces.addAll(MetaStorages.settingNamespaces(TimelineArchiver.class.getClassLoader()));
    return namespaces;
  }

  /**
   * Fails on a key that names no setting in a namespace we read, and logs the keys nothing reads.
   *
   * @param config the settings to check
   * @throws IllegalArgumentException naming a key that is misspelt or out of bounds
   * @return the keys nothing reads (other tools' {@code hoodie.*} keys, …), sorted
   */
  public static List<String> checkKeys(Map<String, String> config) {
    List<String> ignored =
        ConfigCheck.check(requireNonNull(config, "config is null"), settingNamespaces());
    if (!ignored.isEmpty()) {
      LOG.debug("settings not read by timeline-archive: {}", ignored);
    }
    return ignored;
  }

  /**
   * What a run would archive now, and why selection stops there; changes nothing.
   *
   * @return the plan: the instants a run would archive and the barrier of each group
   * @throws IOException if the table or its timeline cannot be read
   */
  public ArchivalPlan plan() throws IOException {
    TimelineHistory history = history(HoodieTable.inspect(storage, base));
    return history.plan(history.listActive(), clock.instant());
  }

  /** The table's history, in its timeline format. */
  private TimelineHistory history(HoodieTable table) throws IOException {
    return TimelineHistories.open(
        new TimelineHistoryProvider.Context(
            storage, table, policy, metadataTableRules, settings, config, clock));
  }

  /**
   * Our own rules ({@code archive.retain.min-age}, {@code archive.max-instants-per-run}, {@code
   * archive.history.max-age}), and on a metadata table the rules Hudi archives it by, as they apply
   * now to this table, one line each; empty when none is set.
   *
   * @return one line per rule in force
   * @throws IOException if the table cannot be read
   */
  public List<String> rules() throws IOException {
    HoodieTable table = HoodieTable.inspect(storage, base);
    List<String> rules = new ArrayList<>();
    if (table.isMetadataTable()) {
      TimelineHistory history = history(table);
      rules.add(
          metadataTableRules.describe(
              policy, history.facts(history.listActive()).dataTable().orElseThrow()));
    }
    rules.addAll(
        EffectiveRules.describe(policy, clock.instant(), TableFactsLoader.timelineZone(table)));
    settings
        .historyMaxAge()
        .ifPresent(
            age ->
                rules.add(
                    "archive history max-age "
                        + EffectiveRules.format(age)
                        + ": archive files whose newest instant is older are deleted (never the"
                        + " newest file)"));
    return rules;
  }

  /**
   * Releases the archive lock of {@code owner}, an archiver that died on another host (one that
   * died on this host is taken over by the next run at once). Refuses an owner that renewed its
   * lease within the last minute, unless {@code force}.
   *
   * @param owner the holder's id, as the lock file and the exit-4 message name it
   * @param force release even a lock renewed within the last minute
   * @return false if the archive was not locked
   * @throws ArchiveLockedException if another owner holds the lock, or it was renewed lately
   */
  public boolean unlock(String owner, boolean force) throws IOException {
    requireNonNull(owner, "owner is null");
    StorageLocation lockFolder = history(HoodieTable.inspect(storage, base)).folder();
    return ArchiveLock.unlock(
        storage, ArchiveFolder.list(storage, lockFolder), owner, force, clock);
  }

  /**
   * Archives what the policy selects, finishing first whatever an interrupted earlier run left.
   *
   * @return what the run did; a run with nothing to archive returns a result with no instants
   * @throws IOException if the storage fails; files are deleted only once the archive holding them
   *     is durable, so a failed run is finished by the next
   * @throws ArchiveLockedException if another archiver holds the lock, or this one lost it
   * @throws InstantConversionException if a selected instant file cannot be read or converted and
   *     {@code hoodie.fail.on.timeline.archiving} is true (nothing was written or deleted)
   */
  public ArchiveResult archiveIfRequired() throws IOException {
    return new ArchiveRun(storage, base, this::history, settings, clock, listener).run();
  }

  /**
   * Closes the storage, if {@link #open(String, Map)} opened it.
   *
   * @throws IOException if the storage fails to close
   */
  @Override
  public void close() throws IOException {
    if (ownsStorage) {
      storage.close();
    }
  }
}
