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

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.distlock.autoconfigure.DistLockAutoConfiguration;

import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.core.type.MethodMetadata;

/**
 * Leaves out the Redis release notifier of {@link DistLockAutoConfiguration} when locks
 * are in memory: the in-memory store wakes waiters itself, and the notifier would
 * otherwise subscribe to whatever Redis {@code spring.data.redis.*} names (retrying in
 * the background, with a warning, when there is none), in the way Boot's
 * {@code @AutoConfigureTestDatabase} replaces a bean definition.
 */
class RedisReleaseNotifierRemover implements BeanDefinitionRegistryPostProcessor {

	private static final Log logger = LogFactory.getLog(RedisReleaseNotifierRemover.class);

	@Override
	public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
		for (String name : registry.getBeanDefinitionNames()) {
			if (registry.getBeanDefinition(name) instanceof AnnotatedBeanDefinition definition
					&& isReleaseNotifier(definition.getFactoryMethodMetadata())) {
				registry.removeBeanDefinition(name);
				logger.debug("Locks are in memory: Redis release notifications left out");
			}
		}
	}

	private static boolean isReleaseNotifier(@org.jspecify.annotations.Nullable MethodMetadata factoryMethod) {
		return factoryMethod != null
				&& factoryMethod.getDeclaringClassName().equals(DistLockAutoConfiguration.class.getName())
				&& factoryMethod.getMethodName().equals("releaseNotifier");
	}

}
