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

package io.distlock.sample.redis;

import java.util.List;
import java.util.Map;

import io.distlock.test.RedisServer;
import org.apache.commons.logging.Log;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts a real {@code redis-server} on a free loopback port when no Redis is configured
 * (none of {@code spring.data.redis.url}, {@code host}, {@code port},
 * {@code sentinel.nodes} or {@code cluster.nodes} is set, in any property source), and
 * points {@code spring.data.redis.host} and {@code port} at it.
 * <p>
 * The server is registered as the {@link EmbeddedRedis} bean and stopped when the
 * application context closes; the test harness's shutdown hook also kills it when the JVM
 * exits any other way.
 */
public class EmbeddedRedisEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/**
	 * The name of the {@link EmbeddedRedis} bean.
	 */
	public static final String BEAN_NAME = "embeddedRedis";

	private static final List<String> CONNECTION_PROPERTIES = List.of("spring.data.redis.url", "spring.data.redis.host",
			"spring.data.redis.port", "spring.data.redis.sentinel.nodes", "spring.data.redis.cluster.nodes");

	private final Log logger;

	/**
	 * Create the post-processor.
	 * @param logFactory where to log once logging is set up
	 */
	public EmbeddedRedisEnvironmentPostProcessor(DeferredLogFactory logFactory) {
		this.logger = logFactory.getLog(EmbeddedRedisEnvironmentPostProcessor.class);
	}

	@Override
	public int getOrder() {
		// After application.yml and profiles are loaded.
		return ConfigDataEnvironmentPostProcessor.ORDER + 10;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		for (String property : CONNECTION_PROPERTIES) {
			if (environment.containsProperty(property)) {
				this.logger.info("Using the Redis configured by " + property + "; no embedded redis-server started");
				return;
			}
		}
		RedisServer server = RedisServer.start();
		EmbeddedRedis embedded = new EmbeddedRedis(server);
		environment.getPropertySources()
			.addLast(new MapPropertySource(BEAN_NAME,
					Map.of("spring.data.redis.host", server.host(), "spring.data.redis.port", server.port())));
		application.addInitializers((context) -> register(context, embedded));
		this.logger.info("No Redis configured (spring.data.redis.url or host/port): started an embedded " + server
				+ "; it stops with the application");
	}

	private static void register(ConfigurableApplicationContext context, EmbeddedRedis embedded) {
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		beanFactory.registerSingleton(BEAN_NAME, embedded);
		if (beanFactory instanceof DefaultSingletonBeanRegistry registry) {
			// Registered before any other bean exists, so destroyed after all of them:
			// the Redis connections and held locks are closed while Redis still runs.
			registry.registerDisposableBean(BEAN_NAME, embedded);
		}
		else {
			context.addApplicationListener((ContextClosedEvent event) -> embedded.destroy());
		}
	}

}
