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
 *
 * <p>A holder that crashed would block every run until its lease ran out, so each lock file also
 * records the holder's process ({@link HolderProcess}): a newcomer on the same host that finds that
 * process gone takes over at once, by the same move as on expiry. A holder on another host is
 * released by an operator with {@link #unlock}.
 */
public final class ArchiveLock implements AutoCloseable {
  public static final String PREFIX = ".timeline_archive.lock.";
  private static final Pattern NAME = Pattern.compile("^\\.timeline_archive\\.lock\\.(\\d+)$");

  /** A holder that renewed this recently is taken to be alive by {@link #unlock}. */
  private static final Duration RECENT_RENEWAL = Duration.ofMinutes(1);

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
    if (highest > 0) {
      Optional<Holder> holder = readHolder(storage, folder.resolve(PREFIX + highest));
      if (holder.isPresent() && holder.get().isHeld(clock.instant())) {
        throw locked(folder, holder.get());
      }
    }
    long generation = highest + 1;
    Instant expiry = clock.instant().plus(lease);
    StorageLocation file = folder.resolve(PREFIX + generation);
    byte[] content = Holder.ofThisProcess(owner, clock.instant(), expiry).encode();
    try {
      ExclusiveCreate.create(storage, file, content);
    } catch (FileAlreadyExistsException e) {
      Optional<Holder> winner = readHolder(storage, file);
      throw locked(folder, winner.orElse(Holder.unknown(expiry)));
    }
    ArchiveLock lock = new ArchiveLock(storage, folder, owner, lease, clock, generation, expiry);
    deleteGenerations(storage, folder, upTo(highest));
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
    byte[] content = Holder.ofThisProcess(owner, clock.instant(), newExpiry).encode();
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
    deleteGenerations(storage, folder, List.of(previous));
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
      deleteGenerations(storage, folder, List.of(generation));
    }
  }

  /**
   * Releases the lock of {@code owner}, whom an operator knows to be dead (on another host: on this
   * one the next run takes over by itself). Writes the next generation with a lease already over,
   * so that the holder, were it alive after all, stops at its next check or renewal, and the next
   * run takes over.
   *
   * @param archiveFolder the archive folder, listed just before
   * @param force release even a lock renewed within the last minute
   * @return false if the archive is not locked
   * @throws ArchiveLockedException if another owner holds the lock, or {@code owner} renewed it
   *     within the last minute and {@code force} is false
   */
  public static boolean unlock(
      MetaStorage storage, ArchiveFolder archiveFolder, String owner, boolean force, Clock clock)
      throws IOException {
    StorageLocation folder = archiveFolder.location();
    long highest = archiveFolder.lockGeneration();
    Optional<Holder> holder =
        highest > 0 ? readHolder(storage, folder.resolve(PREFIX + highest)) : Optional.empty();
    Instant now = clock.instant();
    if (holder.isEmpty() || !holder.get().isHeld(now)) {
      return false;
    }
    if (!holder.get().owner().equals(owner)) {
      throw new ArchiveLockedException(
          "the archive of "
              + folder
              + " is locked by "
              + holder.get().owner()
              + ", not by "
              + owner
              + "; nothing released");
    }
    Optional<Instant> written = holder.get().written();
    if (!force && written.isPresent() && written.get().isAfter(now.minus(RECENT_RENEWAL))) {
      throw new ArchiveLockedException(
          owner
              + " renewed its lock on "
              + folder
              + " at "
              + written.get()
              + ", within the last minute: it looks alive; nothing released (force to release"
              + " anyway)");
    }
    StorageLocation file = folder.resolve(PREFIX + (highest + 1));
    try {
      ExclusiveCreate.create(
          storage, file, Holder.ofThisProcess("released by an operator", now, now).encode());
    } catch (FileAlreadyExistsException e) {
      throw new ArchiveLockedException(
          "the lock on " + folder + " changed hands while releasing it; nothing released");
    }
    deleteGenerations(storage, folder, upTo(highest));
    return true;
  }

  /** Generations 1 to {@code highest}: those a new generation supersedes. */
  private static List<Long> upTo(long highest) {
    List<Long> generations = new ArrayList<>();
    for (long g = 1; g <= highest; g++) {
      generations.add(g);
    }
    return generations;
  }

  private static void deleteGenerations(
      MetaStorage storage, StorageLocation folder, List<Long> generations) throws IOException {
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
            + "; another archiver is running, or crashed: on this host the next run takes over as"
            + " soon as that process is gone, and one that died on another host is released with"
            + " `timeline-archive unlock TABLE_URI --owner "
            + holder.owner()
            + "`");
  }

  /**
   * A lock file's content.
   *
   * @param written when it was written, if the file says (older ones do not)
   * @param process the holder's process, if the file says
   */
  record Holder(
      String owner, Instant expiry, Optional<Instant> written, Optional<HolderProcess> process) {
    static Holder ofThisProcess(String owner, Instant written, Instant expiry) {
      return new Holder(
          owner, expiry, Optional.of(written), Optional.of(HolderProcess.ofThisProcess()));
    }

    static Holder unknown(Instant expiry) {
      return new Holder("unknown", expiry, Optional.empty(), Optional.empty());
    }

    /** Held: its lease has time left and its process is not known to be gone. */
    boolean isHeld(Instant now) {
      return expiry.isAfter(now) && !process.map(HolderProcess::isGone).orElse(false);
    }

    byte[] encode() {
      StringBuilder text = new StringBuilder();
      text.append("owner=").append(owner).append("\nexpiry=").append(expiry).append('\n');
      written.ifPresent(w -> text.append("written=").append(w).append('\n'));
      process.ifPresent(
          p ->
              text.append("host=")
                  .append(p.host())
                  .append("\npid=")
                  .append(p.pid())
                  .append("\nstarted=")
                  .append(p.started())
                  .append('\n'));
      return text.toString().getBytes(UTF_8);
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
        Optional<Instant> written =
            Optional.ofNullable(p.getProperty("written")).map(Instant::parse);
        Optional<HolderProcess> process = Optional.empty();
        String host = p.getProperty("host");
        String pid = p.getProperty("pid");
        String started = p.getProperty("started");
        if (host != null && pid != null && started != null) {
          process =
              Optional.of(new HolderProcess(host, Long.parseLong(pid), Instant.parse(started)));
        }
        return new Holder(owner, Instant.parse(expiry), written, process);
      } catch (java.time.format.DateTimeParseException | NumberFormatException e) {
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
          Instant.MAX,
          Optional.empty(),
          Optional.empty());
    }
  }
}
