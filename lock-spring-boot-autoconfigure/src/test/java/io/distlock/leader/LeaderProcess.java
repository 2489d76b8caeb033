/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.distlock.leader;

import java.util.concurrent.CountDownLatch;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;

/**
 * An instance of an application with leader election, in a JVM of its own, for
 * {@link LeaderElectionIntegrationTests} to kill: it prints
 * {@code LEADER <fencing token>} when it gets the leadership and lives until it is
 * killed.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class LeaderProcess {

	/**
	 * The line printed when this process gets the leadership, before its fencing token.
	 */
	public static final String LEADER = "LEADER ";

	/**
	 * Start the application and wait to be killed.
	 * @param args the Redis host, its port, the leadership's name and its ttl
	 * @throws InterruptedException never, unless the main thread is interrupted
	 */
	public static void main(String[] args) throws InterruptedException {
		new SpringApplicationBuilder(LeaderProcess.class).web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + args[0], "spring.data.redis.port=" + args[1],
					"distlock.leader.name=" + args[2], "distlock.leader.ttl=" + args[3],
					"spring.application.name=leader-process", "spring.main.banner-mode=off", "logging.level.root=WARN")
			.run();
		// The contender is a daemon thread: keep the JVM alive until it is killed.
		new CountDownLatch(1).await();
	}

	@Bean
	Announcer announcer() {
		return new Announcer();
	}

	/**
	 * Tells the test through standard output that this process leads.
	 */
	static class Announcer {

		@EventListener
		void granted(LeadershipGrantedEvent event) {
			System.out.println(LEADER + event.getFencingToken());
			System.out.flush();
		}

	}

}
