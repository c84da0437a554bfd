package io.timelinearchive.storage.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class TestHdfsConfig {

  @Test
  void defaults() {
    HdfsConfig config = HdfsConfig.from(Map.of("s3.region", "eu-west-1"));

    assertThat(config.schemes()).containsExactlyInAnyOrder("hdfs", "viewfs");
    assertThat(config.leaseRecoveryTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.hadoopProperties()).isEmpty();
  }

  @Test
  void hadoopKeysLoseTheirPrefixAndOverrideTheDefaultResources() {
    HdfsConfig config =
        HdfsConfig.from(
            Map.of(
                "hadoop.fs.defaultFS", "hdfs://nn:8020",
                "hadoop.hadoop.security.authentication", "kerberos",
                "hadoop.io.file.buffer.size", "8192",
                "s3.endpoint", "http://127.0.0.1:9000"));

    assertThat(config.hadoopProperties())
        .containsOnly(
            Map.entry("fs.defaultFS", "hdfs://nn:8020"),
            Map.entry("hadoop.security.authentication", "kerberos"),
            Map.entry("io.file.buffer.size", "8192"));
    Configuration conf = config.toConfiguration();
    assertThat(conf.get("fs.defaultFS")).isEqualTo("hdfs://nn:8020");
    assertThat(conf.getInt("io.file.buffer.size", 0)).isEqualTo(8192);
    // core-default.xml is loaded underneath
    assertThat(conf.get("hadoop.tmp.dir")).isNotNull();
  }

  @Test
  void ownKeysAreNotHadoopSettings() {
    HdfsConfig config =
        HdfsConfig.from(
            Map.of("hadoop.schemes", " OFS , jfs", "hadoop.lease-recovery-timeout", "0s"));

    assertThat(config.schemes()).containsExactlyInAnyOrder("hdfs", "viewfs", "ofs", "jfs");
    assertThat(config.leaseRecoveryTimeout()).isZero();
    assertThat(config.hadoopProperties()).isEmpty();
  }

  @Test
  void invalidSettingsNameTheirKey() {
    assertThatThrownBy(() -> HdfsConfig.from(Map.of("hadoop.schemes", "ofs,,jfs")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hadoop.schemes");
    assertThatThrownBy(() -> HdfsConfig.from(Map.of("hadoop.schemes", "o/fs")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hadoop.schemes");
    assertThatThrownBy(() -> HdfsConfig.from(Map.of("hadoop.lease-recovery-timeout", "10")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hadoop.lease-recovery-timeout");
    assertThatThrownBy(() -> HdfsConfig.from(Map.of("hadoop.lease-recovery-timeout", "-PT1S")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hadoop.lease-recovery-timeout");
    assertThatThrownBy(() -> HdfsConfig.from(Map.of("hadoop.", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'hadoop.'");
  }

  @Test
  void theLeaseRecoveryTimeoutIsADuration() {
    assertThat(
            HdfsConfig.from(Map.of("hadoop.lease-recovery-timeout", "500ms"))
                .leaseRecoveryTimeout())
        .isEqualTo(Duration.ofMillis(500));
    assertThat(
            HdfsConfig.from(Map.of("hadoop.lease-recovery-timeout", "PT2M")).leaseRecoveryTimeout())
        .isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void theOldMillisecondKeyIsRefusedNamingItsSuccessor() {
    // Handed to Hadoop, it would be ignored and leave the default in force.
    assertThatThrownBy(() -> HdfsConfig.from(Map.of("hadoop.lease-recovery-timeout-ms", "60000")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("hadoop.lease-recovery-timeout-ms is now")
        .hasMessageContaining("hadoop.lease-recovery-timeout,");
  }

  @Test
  void aMisspeltKeyOfOursFailsButOtherHadoopKeysPassOn() {
    assertThatThrownBy(() -> HdfsConfig.from(Map.of("hadoop.schemas", "ofs")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown setting hadoop.schemas; did you mean hadoop.schemes?");
    assertThat(HdfsConfig.from(Map.of("hadoop.dfs.replication", "1")).hadoopProperties())
        .containsOnly(Map.entry("dfs.replication", "1"));
  }

  @Test
  void toStringShowsNoValues() {
    HdfsConfig config =
        HdfsConfig.from(
            Map.of(
                "hadoop.fs.s3a.secret.key", "very-secret",
                "hadoop.ssl.server.keystore.password", "hunter2"));

    assertThat(config.toString())
        .contains("fs.s3a.secret.key", "ssl.server.keystore.password")
        .doesNotContain("very-secret", "hunter2");
  }

  @Test
  void theTimeoutAndRetrySettingsAreTheHadoopKeysTheyStandFor() {
    HdfsConfig config =
        HdfsConfig.from(
            Map.of(
                "hadoop.connect-timeout", "3s",
                "hadoop.request-timeout", "1500ms",
                "hadoop.connect-retries", "2"));

    assertThat(config.hadoopProperties())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "ipc.client.connect.timeout", "3000",
                "ipc.client.rpc-timeout.ms", "1500",
                "ipc.client.connect.max.retries", "2",
                "ipc.client.connect.max.retries.on.timeouts", "2"));
    assertThat(config.toConfiguration().getInt("ipc.client.rpc-timeout.ms", -1)).isEqualTo(1500);
  }

  @Test
  void aTimeoutGivenBothWaysIsRefusedNamingBothKeys() {
    assertThatThrownBy(
            () ->
                HdfsConfig.from(
                    Map.of(
                        "hadoop.request-timeout", "2s",
                        "hadoop.ipc.client.rpc-timeout.ms", "5000")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "hadoop.request-timeout and hadoop.ipc.client.rpc-timeout.ms both set the same thing:"
                + " give one of them");
    assertThatThrownBy(() -> HdfsConfig.from(Map.of("hadoop.connect-timeout", "0s")))
        .hasMessageStartingWith("hadoop.connect-timeout='0s' must be");
  }
}
