package io.timelinearchive.reliability;

import io.timelinearchive.storage.s3.FaultProxy.Fault;
import io.timelinearchive.storage.s3.FaultProxy.Request;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/** Store faults on S3Proxy. */
class S3FaultIT extends AbstractFaultIT {
  @Override
  Store store() {
    return Store.s3();
  }

  @Override
  URI upstream(Map<String, String> config) {
    return URI.create(config.get("s3.endpoint"));
  }

  @Override
  Map<String, String> viaProxy(Map<String, String> config, URI proxy) {
    Map<String, String> via = new HashMap<>(config);
    via.put("s3.endpoint", proxy.toString());
    return via;
  }

  @Override
  Fault error(int status) {
    return Fault.respond(
        status,
        switch (status) {
          case 503 -> "SlowDown";
          case 429 -> "TooManyRequests";
          default -> "InternalError";
        });
  }

  @Override
  boolean instantRead(Request r) {
    return r.isGetObject() && namesAnInstantFile(r);
  }

  @Override
  boolean list(Request r) {
    return r.method().equals("GET") && r.query().contains("list-type=");
  }

  @Override
  boolean archiveWrite(Request r) {
    return r.isPutObject() && r.path().contains("/.commits_.archive.");
  }

  @Override
  boolean lockWrite(Request r) {
    return r.isPutObject() && r.path().contains("/.timeline_archive.lock.");
  }

  // the S3 backend deletes everything with DeleteObjects, the lock included
  @Override
  boolean delete(Request r) {
    return r.isDeleteObjects();
  }
}
