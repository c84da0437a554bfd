package io.timelinearchive.archive.folder;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.ExclusiveCreate;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The archive lock: one archiver at a time per table (invariant 4).
 *
 * <p>Stores have an exclusive create but no conditional delete or overwrite, so the lock is a
 * series of generations {@code .timeline_archive.lock.<gen>} in the archive folder: the holder is
 * the writer of the highest generation present. A newcomer that finds the holder's lease expired
 * takes over by creating the next generation exclusively (of several, exactly one wins) and then
 * deletes the older ones, so a paused holder finds its own file gone. Renewal is the same move by
 * the holder itself. A holder checks that its file is still there and its lease has time left
 * before every deletion phase; the margin covers clock skew between archivers.
 */
public final class ArchiveLock implements AutoCloseable {
  public static final String PREFIX = ".timeline_archive.lock.";
  private static final Pattern NAME = Pattern.compile("^\\.timeline_archive\\.lock\\.(\\d+)$");

  private final MetaStorage storage;
  private final StorageLocation folder;
  private final String owner;
  private final Duration lease;
  private final Clock clock;
  private long generation;
  private Instant expiry;
  private boolean released;
  private Instant lastCheck = Instant.MIN;

  private ArchiveLock(
      MetaStorage storage,
      StorageLocation folder,
      String owner,
      Duration lease,
      Clock clock,
      long generation,
      Instant expiry) {
    this.storage = storage;
    this.folder = folder;
    this.owner = owner;
    this.lease = lease;
    this.clock = clock;
    this.generation = generation;
    this.expiry = expiry;
  }

  /** The generation in a lock file's name, if it is one. */
  static Optional<Long> generation(String fileName) {
    Matcher m = NAME.matcher(fileName);
    return m.matches() ? Optional.of(Long.parseLong(m.group(1))) : Optional.empty();
  }

  /**
   * Takes the lock.
   *
   * @param archiveFolder the archive folder, listed just before
   * @throws ArchiveLockedException naming the holder and its lease expiry when the lock is held
   */
  public static ArchiveLock acquire(
      MetaStorage storage, ArchiveFolder archiveFolder, String owner, Duration lease, Clock clock)
      throws IOException {
    requireNonNull(owner, "owner is null");
    StorageLocation folder = archiveFolder.location();
    long highest = archiveFolder.lockGeneration();
    List<Long> stale = new ArrayList<>();
    if (highest > 0) {
      Optional<Holder> holder = readHolder(storage, folder.resolve(PREFIX + highest));
      if (holder.isPresent() && holder.get().expiry().isAfter(clock.instant())) {
        throw locked(folder, holder.get());
      }
      for (long g = 1; g <= highest; g++) {
        stale.add(g);
      }
    }
    long generation = highest + 1;
    Instant expiry = clock.instant().plus(lease);
    StorageLocation file = folder.resolve(PREFIX + generation);
    byte[] content = new Holder(owner, expiry).encode();
    try {
      ExclusiveCreate.create(storage, file, content);
    } catch (FileAlreadyExistsException e) {
      Optional<Holder> winner = readHolder(storage, file);
      throw locked(folder, winner.orElse(new Holder("unknown", expiry)));
    }
    ArchiveLock lock = new ArchiveLock(storage, folder, owner, lease, clock, generation, expiry);
    lock.deleteGenerations(stale);
    return lock;
  }

  public String owner() {
    return owner;
  }

  /**
   * Fails unless this archiver still holds the lock with at least a third of its lease left; renews
   * the lease (a new generation) when less than half is left.
   *
   * @throws ArchiveLockedException if the lease ran out or another archiver took over
   */
  public void check() throws IOException {
    if (released) {
      throw new IllegalStateException("lock already released");
    }
    Instant now = clock.instant();
    lastCheck = now;
    Duration left = Duration.between(now, expiry);
    if (left.compareTo(lease.dividedBy(3)) < 0) {
      throw new ArchiveLockedException(
          "archive lock lease of "
              + owner
              + " ran out at "
              + expiry
              + " (or nearly: "
              + left
              + " left); stopping: this run writes and deletes nothing more");
    }
    Optional<Holder> holder = readHolder(storage, folder.resolve(PREFIX + generation));
    if (holder.isEmpty() || !holder.get().owner().equals(owner)) {
      throw new ArchiveLockedException(
          "archive lock of "
              + owner
              + " was taken over by another archiver; stopping: this run writes and deletes nothing more");
    }
    if (left.compareTo(lease.dividedBy(2)) < 0) {
      renew();
    }
  }

  /** {@link #check()} when a tenth of the lease has passed since the last one; else nothing. */
  public void checkIfDue() throws IOException {
    if (Duration.between(lastCheck, clock.instant()).compareTo(lease.dividedBy(10)) >= 0) {
      check();
    }
  }

  private void renew() throws IOException {
    long next = generation + 1;
    Instant newExpiry = clock.instant().plus(lease);
    byte[] content = new Holder(owner, newExpiry).encode();
    StorageLocation file = folder.resolve(PREFIX + next);
    try {
      ExclusiveCreate.create(storage, file, content);
    } catch (FileAlreadyExistsException e) {
      throw new ArchiveLockedException(
          "archive lock of " + owner + " was taken over while renewing; stopping");
    }
    long previous = generation;
    generation = next;
    expiry = newExpiry;
    deleteGenerations(List.of(previous));
  }

  /** Releases the lock; a lock already taken over is left to its new holder. */
  @Override
  public void close() throws IOException {
    if (released) {
      return;
    }
    released = true;
    Optional<Holder> holder = readHolder(storage, folder.resolve(PREFIX + generation));
    if (holder.isPresent() && holder.get().owner().equals(owner)) {
      deleteGenerations(List.of(generation));
    }
  }

  private void deleteGenerations(List<Long> generations) throws IOException {
    if (!generations.isEmpty()) {
      storage.deleteAll(generations.stream().map(g -> folder.resolve(PREFIX + g)).toList());
    }
  }

  private static Optional<Holder> readHolder(MetaStorage storage, StorageLocation file)
      throws IOException {
    try {
      return Optional.of(Holder.decode(storage.read(file), file));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  private static ArchiveLockedException locked(StorageLocation folder, Holder holder) {
    if (holder.expiry().equals(Instant.MAX)) {
      return new ArchiveLockedException(
          "the archive of " + folder + " is locked by " + holder.owner());
    }
    return new ArchiveLockedException(
        "the archive of "
            + folder
            + " is locked by "
            + holder.owner()
            + " until "
            + holder.expiry()
            + "; another archiver is running (or crashed: its lease expires then)");
  }

  record Holder(String owner, Instant expiry) {
    byte[] encode() {
      return ("owner=" + owner + "\nexpiry=" + expiry + "\n").getBytes(UTF_8);
    }

    static Holder decode(byte[] bytes, StorageLocation file) {
      Properties p = new Properties();
      try {
        p.load(new ByteArrayInputStream(bytes));
      } catch (IOException | IllegalArgumentException e) {
        return unreadable(file);
      }
      String owner = p.getProperty("owner");
      String expiry = p.getProperty("expiry");
      if (owner == null || expiry == null) {
        return unreadable(file);
      }
      try {
        return new Holder(owner, Instant.parse(expiry));
      } catch (java.time.format.DateTimeParseException e) {
        return unreadable(file);
      }
    }

    /**
     * A lock file that cannot be read is held, never free: whoever wrote it may be running. Only a
     * person can tell it is safe to remove.
     */
    private static Holder unreadable(StorageLocation file) {
      return new Holder(
          "an unreadable lock file " + file + " (remove it if no archiver is running)",
          Instant.MAX);
    }
  }
}
