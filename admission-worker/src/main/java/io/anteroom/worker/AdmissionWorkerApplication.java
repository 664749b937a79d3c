package io.anteroom.worker;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The admission worker: moves visitors from waiting to running at each room's rate and ends idle
 * sessions. It serves only the actuator (port 8082); any number of instances may run at once.
 */
@SpringBootApplication
@ConfigurationPropertiesScan("io.anteroom.worker")
public class AdmissionWorkerApplication {

  public static void main(String[] args) {
    SpringApplication.run(AdmissionWorkerApplication.class, args);
  }
}
