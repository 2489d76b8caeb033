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

package io.distlock.boot3;

import io.distlock.core.LockClient;
import io.distlock.redis.RedisLockClient;
import io.distlock.test.LockStoreContractTests;
import io.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Every contract suite of the store SPI (fair, read/write, permits, inspection) on the
 * {@link RedisLockClient} that the Boot 3 starter configures in a Spring Boot 3.5
 * application, on a real redis-server.
 * <p>
 * The application is started by hand rather than by the Spring test framework: the suites
 * are nested classes declared in {@link LockStoreContractTests}, where the test framework
 * would look for their configuration.
 */
class Boot3StoreContractIntegrationTests extends LockStoreContractTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private static ConfigurableApplicationContext application;

	@BeforeAll
	static void startApplication() {
		application = new SpringApplicationBuilder(Boot3Application.class).web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port())
			.run();
	}

	@AfterAll
	static void stopApplication() {
		application.close();
	}

	@Override
	protected LockClient client() {
		return application.getBean(RedisLockClient.class);
	}

}