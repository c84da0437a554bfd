package io.timelinearchive.hudicompat;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hudi.avro.model.HoodieArchivedMetaEntry;
import org.apache.hudi.common.model.HoodieLogFile;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.log.HoodieLogFormat;
import org.apache.hudi.common.table.log.block.HoodieAvroDataBlock;
import org.apache.hudi.common.table.log.block.HoodieLogBlock;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.util.collection.ClosableIterator;
import org.apache.hudi.storage.HoodieStorage;
import org.apache.hudi.storage.StoragePath;
import org.apache.hudi.storage.StoragePathInfo;

/** The timelines of a table as Apache Hudi 0.15's own classes read them. */
final class HudiView {
  private static final Pattern ARCHIVE_VERSION =
      Pattern.compile("^\\.commits_\\.archive\\.(\\d+)_.*$");

  private HudiView() {}

  /**
   * One instant state: (time, action, state), with Hudi's names (a completed compaction is a
   * commit).
   */
  record Id(String time, String action, String state) implements Comparable<Id> {
    private static final Comparator<Id> ORDER =
        Comparator.comparing(Id::time).thenComparing(Id::action).thenComparing(Id::state);

    Id {
      requireNonNull(time, "time is null");
      requireNonNull(action, "action is null");
      requireNonNull(state, "state is null");
    }

    static Id of(HoodieInstant instant) {
      return new Id(instant.getTimestamp(), instant.getAction(), instant.getState().name());
    }

    static Id of(TimelineInstant instant) {
      return new Id(instant.time(), instant.action().actionName(), instant.state().name());
    }

    static Id of(GenericRecord entry) {
      return new Id(
          String.valueOf(entry.get("commitTime")),
          String.valueOf(entry.get("actionType")),
          String.valueOf(entry.get("actionState")));
    }

    boolean completed() {
      return state.equals("COMPLETED");
    }

    @Override
    public int compareTo(Id other) {
      return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
      return time + "." + action + "." + state;
    }
  }

  /**
   * Every instant state file of the active timeline (Hudi's raw view, not only the latest states).
   */
  static Set<Id> active(HoodieTableMetaClient metaClient) {
    Set<Id> ids = new TreeSet<>();
    new HoodieActiveTimeline(metaClient, false)
        .getInstantsAsStream()
        .forEach(i -> ids.add(Id.of(i)));
    return ids;
  }

  /** Hudi's archived timeline, every state, with the details of completed instants loaded. */
  static HoodieArchivedTimeline archived(HoodieTableMetaClient metaClient) {
    HoodieArchivedTimeline archived = new HoodieArchivedTimeline(metaClient);
    archived.loadCompletedInstantDetailsInMemory();
    return archived;
  }

  static Set<Id> ids(HoodieArchivedTimeline archived) {
    Set<Id> ids = new TreeSet<>();
    archived.getInstantsAsStream().forEach(i -> ids.add(Id.of(i)));
    return ids;
  }

  /** One block as Hudi's log reader returns it. */
  record ScannedBlock(
      String file,
      int version,
      HoodieLogBlock.HoodieLogBlockType type,
      List<GenericRecord> records) {}

  /**
   * Every block of every archive file, oldest version first, read with {@link
   * HoodieLogFormat#newReader} under Hudi's own entry schema. Unlike {@link
   * HoodieArchivedTimeline}, which skips what it cannot read, this returns corrupt blocks as blocks
   * of type {@code CORRUPT_BLOCK} for the caller to see.
   */
  static List<ScannedBlock> scan(HoodieTableMetaClient metaClient) throws IOException {
    return scan(metaClient, HoodieArchivedMetaEntry.getClassSchema());
  }

  /**
   * As {@link #scan(HoodieTableMetaClient)}, reading each block under {@code readerSchema}, or
   * under the schema in the block's header when it is null.
   */
  static List<ScannedBlock> scan(HoodieTableMetaClient metaClient, Schema readerSchema)
      throws IOException {
    HoodieStorage storage = metaClient.getStorage();
    List<StoragePathInfo> files =
        new ArrayList<>(
            storage.globEntries(
                new StoragePath(metaClient.getArchivePath() + "/.commits_.archive*")));
    files.sort(Comparator.comparingInt(f -> version(f.getPath().getName())));
    List<ScannedBlock> blocks = new ArrayList<>();
    for (StoragePathInfo file : files) {
      try (HoodieLogFormat.Reader reader =
          HoodieLogFormat.newReader(storage, new HoodieLogFile(file.getPath()), readerSchema)) {
        while (reader.hasNext()) {
          HoodieLogBlock block = reader.next();
          List<GenericRecord> records = new ArrayList<>();
          if (block instanceof HoodieAvroDataBlock data) {
            try (ClosableIterator<HoodieRecord<Object>> it =
                data.getRecordIterator(HoodieRecord.HoodieRecordType.AVRO)) {
              it.forEachRemaining(r -> records.add((GenericRecord) r.getData()));
            }
          }
          blocks.add(
              new ScannedBlock(
                  file.getPath().getName(),
                  version(file.getPath().getName()),
                  block.getBlockType(),
                  records));
        }
      }
    }
    return blocks;
  }

  static int version(String archiveFileName) {
    Matcher m = ARCHIVE_VERSION.matcher(archiveFileName);
    if (!m.matches()) {
      throw new IllegalArgumentException("not an archive file: " + archiveFileName);
    }
    return Integer.parseInt(m.group(1));
  }
}
