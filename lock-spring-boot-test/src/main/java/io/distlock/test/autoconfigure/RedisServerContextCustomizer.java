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

package io.distlock.test.autoconfigure;

import org.jspecify.annotations.Nullable;

import io.distlock.test.RedisEndpoint;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Starts one Redis for an application context, puts its {@code spring.data.redis.*}
 * properties first in the environment and registers it as a bean that the context stops
 * when it closes.
 */
class RedisServerContextCustomizer implements ContextCustomizer {

	static final String BEAN_NAME = "distlockTestRedisEndpoint";

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		RedisEndpoint endpoint = RedisEndpoint.singleNode();
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("distlockTestRedisServer", SpringDataRedisProperties.of(endpoint)));
		context.getBeanFactory().registerSingleton(BEAN_NAME, endpoint);
		// The server stops with the context, also a cached one that the test framework
		// evicts, and not before: the beans using it close first.
		context.addApplicationListener((ApplicationEvent event) -> {
			if (event instanceof ContextClosedEvent closed && closed.getApplicationContext() == context) {
				close(endpoint);
			}
		});
	}

	private static void close(RedisEndpoint endpoint) {
		try {
			endpoint.close();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Failed to stop the test Redis " + endpoint, ex);
		}
	}

	// Every instance configures the same thing, so contexts stay cacheable.
	@Override
	public boolean equals(@Nullable Object other) {
		return other != null && other.getClass() == getClass();
	}

	@Override
	public int hashCode() {
		return getClass().hashCode();
	}

}
