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

import java.util.Locale;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Applies the deprecated {@code distlock.actuator.force-release-enabled} as the
 * {@code management.endpoint.locks.access} it stands for: {@code true} as
 * {@code unrestricted}, {@code false} as {@code read-only}, in the way Spring Boot reads
 * the deprecated {@code management.endpoint.<id>.enabled} as an access level. Spring
 * Boot's own endpoint access rules then apply to it as to the property it replaces: it
 * outranks {@code management.endpoints.access.default}, and
 * {@code management.endpoints.access.max-permitted} caps it.
 *
 * <p>
 * When {@code management.endpoint.locks.access} is set, that property decides and the
 * deprecated one is ignored. Either way its use is logged once at WARN.
 *
 * <p>
 * A bean factory post-processor rather than an environment post-processor, so that it
 * stays with the endpoint's auto-configuration: it runs before any bean is created, so
 * before Spring Boot's endpoint access resolver reads the environment.
 */
final class LocksEndpointAccessAlias implements BeanFactoryPostProcessor {

	static final String DEPRECATED_PROPERTY = "distlock.actuator.force-release-enabled";

	static final String ACCESS_PROPERTY = "management.endpoint.locks.access";

	static final String PROPERTY_SOURCE_NAME = "distlockDeprecatedForceReleaseEnabled";

	private static final Log logger = LogFactory.getLog(LocksEndpointAccessAlias.class);

	private final ConfigurableEnvironment environment;

	LocksEndpointAccessAlias(ConfigurableEnvironment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		if (this.environment.getPropertySources().contains(PROPERTY_SOURCE_NAME)) {
			return;
		}
		Binder binder = Binder.get(this.environment);
		Boolean forceReleaseEnabled = binder.bind(DEPRECATED_PROPERTY, Boolean.class).orElse(null);
		if (forceReleaseEnabled == null) {
			return;
		}
		if (binder.bind(ACCESS_PROPERTY, String.class).isBound()) {
			logger.warn("Property '" + DEPRECATED_PROPERTY + "' is deprecated and ignored, as '" + ACCESS_PROPERTY
					+ "' is set and decides whether DELETE /actuator/locks/{key} is allowed. Remove '"
					+ DEPRECATED_PROPERTY + "'.");
			return;
		}
		Access access = forceReleaseEnabled ? Access.UNRESTRICTED : Access.READ_ONLY;
		logger.warn("Property '" + DEPRECATED_PROPERTY + "' is deprecated: applied as '" + ACCESS_PROPERTY + "="
				+ access.name().toLowerCase(Locale.ROOT).replace('_', '-') + "'. Set '" + ACCESS_PROPERTY
				+ "' instead.");
		// Last: any other source that sets the access property outranks the alias.
		this.environment.getPropertySources()
			.addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, Map.of(ACCESS_PROPERTY, access.name())));
	}

}
