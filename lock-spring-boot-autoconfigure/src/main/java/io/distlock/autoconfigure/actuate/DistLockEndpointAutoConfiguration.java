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

package io.distlock.autoconfigure.actuate;

import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.distlock.HeldLock;
import io.distlock.LockAdministration;
import io.distlock.autoconfigure.DistLockAutoConfiguration;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for the {@code locks} Actuator endpoint, when Actuator is present
 * and the endpoint is exposed ({@code management.endpoints.web.exposure.include}). Lock
 * keys are masked unless {@code management.endpoint.locks.show-values} shows them (see
 * {@link LocksEndpointProperties}).
 *
 * <p>
 * The endpoint follows Spring Boot's endpoint access control: its default access is
 * read-only, and its force-release operation ({@code DELETE /actuator/locks/{key}}) is
 * available only with {@code management.endpoint.locks.access=unrestricted} (or
 * {@code management.endpoints.access.default=unrestricted}), up to
 * {@code management.endpoints.access.max-permitted}. The deprecated
 * {@code distlock.actuator.force-release-enabled} is applied as that property when it is
 * not set (see {@link LocksEndpointAccessAlias}).
 */
@AutoConfiguration(after = DistLockAutoConfiguration.class,
		afterName = "io.distlock.autoconfigure.DistLockReactiveAutoConfiguration")
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnAvailableEndpoint(LocksEndpoint.class)
@EnableConfigurationProperties(LocksEndpointProperties.class)
@ImportRuntimeHints(DistLockEndpointAutoConfiguration.LocksEndpointRuntimeHints.class)
public final class DistLockEndpointAutoConfiguration {

	@Bean
	static LocksEndpointAccessAlias locksEndpointAccessAlias(ConfigurableEnvironment environment) {
		return new LocksEndpointAccessAlias(environment);
	}

	// Always the type with the delete operation: Spring Boot's endpoint access control
	// leaves it out unless the access to the endpoint is unrestricted.
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(LockAdministration.class)
	LocksEndpoint locksEndpoint(LockAdministration locks, LocksEndpointProperties endpointProperties) {
		return new ForceReleasingLocksEndpoint(locks, endpointProperties.getShowValues(),
				endpointProperties.getRoles());
	}

	/**
	 * Hints for the force-release operation and for the answers of the operations on one
	 * key. AOT processing finds an endpoint's operations on the bean's type, which it
	 * takes from the bean method's return type, {@link LocksEndpoint}: the delete
	 * operation of the subclass the method makes would be left out of a native image. The
	 * operations on one key answer a {@code WebEndpointResponse<?>}, whose body type
	 * processing cannot see.
	 */
	static class LocksEndpointRuntimeHints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
			new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(hints, ForceReleasingLocksEndpoint.class);
			new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(),
					LocksEndpoint.LockStateDescriptor.class, ForceReleasingLocksEndpoint.ForceReleaseDescriptor.class,
					LocksEndpoint.RefusalDescriptor.class);
		}

	}

}
