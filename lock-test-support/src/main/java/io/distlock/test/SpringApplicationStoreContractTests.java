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

package io.distlock.test;

import io.distlock.store.LockClient;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@link LockStoreContractTests} on the lock client of a Spring Boot application, started
 * once for the test class against a real Redis server: a Spring-configured store's test
 * names its application and client type, and is done.
 *
 * <pre class="code">
 * class MyStoreContractTests extends SpringApplicationStoreContractTests {
 *
 *     MyStoreContractTests() {
 *         super(MyApplication.class, RedisLockClient.class);
 *     }
 *
 * }
 * </pre>
 *
 * <p>
 * The application runs without a web server, with {@code spring.data.redis.host} and
 * {@code spring.data.redis.port} set to the server's; the server is flushed before each
 * test. It is started by hand rather than by the Spring TestContext framework, which
 * would look for the nested suites' configuration on {@link LockStoreContractTests}.
 */
@TestInstance(Lifecycle.PER_CLASS)
public abstract class SpringApplicationStoreContractTests extends LockStoreContractTests {

	@RegisterExtension
	static final RedisServerExtension redis = RedisServerExtension.singleNode();

	private final Class<?> applicationClass;

	private final Class<? extends LockClient> clientType;

	private @Nullable ConfigurableApplicationContext application;

	/**
	 * Create the tests for the client of the given type in the given application.
	 * @param applicationClass the application's primary source
	 * @param clientType the type of the client bean under test
	 */
	protected SpringApplicationStoreContractTests(Class<?> applicationClass, Class<? extends LockClient> clientType) {
		this.applicationClass = applicationClass;
		this.clientType = clientType;
	}

	@BeforeAll
	void startApplication() {
		this.application = new SpringApplicationBuilder(this.applicationClass).web(WebApplicationType.NONE)
			.properties("spring.data.redis.host=" + redis.endpoint().host(),
					"spring.data.redis.port=" + redis.endpoint().port())
			.run();
	}

	@AfterAll
	void stopApplication() {
		if (this.application != null) {
			this.application.close();
		}
	}

	@Override
	protected LockClient client() {
		ConfigurableApplicationContext application = this.application;
		if (application == null) {
			throw new IllegalStateException("The application is not running");
		}
		return application.getBean(this.clientType);
	}

}
