package io.anteroom.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The Anteroom gateway: a reverse proxy whose {@code WaitingRoom} filter holds visitors in line in
 * front of an origin. Serves traffic on 8080 and the actuator on 8081.
 */
@SpringBootApplication
@ConfigurationPropertiesScan("io.anteroom.gateway")
public class GatewayApplication {

  public static void main(String[] args) {
    SpringApplication.run(GatewayApplication.class, args);
  }
}
