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

package io.distlock.autoconfigure;

import java.io.InputStream;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the configuration metadata generated from {@link DistLockProperties}
 * documents every property, so IDEs can complete and explain them.
 */
class DistLockPropertiesMetadataTests {

	@Test
	void everyPropertyIsDocumentedWithADescription() throws Exception {
		List<Map<String, Object>> properties = properties();
		assertThat(properties).extracting((property) -> property.get("name"))
			.contains("distlock.enabled", "distlock.key-prefix", "distlock.default-ttl", "distlock.default-wait-time",
					"distlock.order", "distlock.max-hold", "distlock.fencing-counter-retention",
					"distlock.redlock.nodes", "distlock.redlock.clock-drift-factor", "distlock.redlock.node-timeout");
		assertThat(properties).allSatisfy((property) -> assertThat((String) property.get("description")).isNotBlank());
	}

	@Test
	void defaultsAreDocumented() throws Exception {
		Map<Object, Object> defaults = new java.util.HashMap<>();
		properties().forEach((property) -> defaults.put(property.get("name"), property.get("defaultValue")));
		assertThat(defaults).containsEntry("distlock.enabled", true)
			.containsEntry("distlock.key-prefix", "lock:")
			.containsEntry("distlock.default-ttl", "30s")
			.containsEntry("distlock.default-wait-time", 0)
			.containsEntry("distlock.max-hold", "1h")
			.containsEntry("distlock.fencing-counter-retention", "10m")
			.containsEntry("distlock.redlock.clock-drift-factor", 0.01)
			.containsEntry("distlock.redlock.node-timeout", "200ms")
			.containsEntry("distlock.order", DistLockProperties.DEFAULT_ORDER);
	}

	@Test
	void healthIndicatorSwitchIsDocumented() throws Exception {
		try (InputStream json = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			List<Map<String, Object>> properties = JsonPath.read(json,
					"$.properties[?(@.name == 'management.health.distlock.enabled')]");
			assertThat(properties).singleElement().satisfies((property) -> {
				assertThat(property).containsEntry("defaultValue", true);
				assertThat((String) property.get("description")).isNotBlank();
			});
		}
	}

	@Test
	void locksEndpointKeyMaskingIsDocumentedInTheShapeOfTheEnvEndpoints() throws Exception {
		try (InputStream json = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			List<Map<String, Object>> properties = JsonPath.read(json,
					"$.properties[?(@.name =~ /management\\.endpoint\\.locks\\..*/)]");
			assertThat(properties).extracting((property) -> property.get("name"))
				.contains("management.endpoint.locks.show-values", "management.endpoint.locks.roles");
			assertThat(properties)
				.allSatisfy((property) -> assertThat((String) property.get("description")).isNotBlank());
			assertThat(properties).filteredOn((property) -> property.get("name").toString().endsWith("show-values"))
				.singleElement()
				.satisfies((property) -> assertThat(property).containsEntry("defaultValue", "never")
					.containsEntry("type", "org.springframework.boot.actuate.endpoint.Show"));
		}
	}

	@Test
	void forceReleaseEnabledIsDeprecatedInFavorOfTheLocksEndpointAccess() throws Exception {
		try (InputStream json = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			List<Map<String, Object>> properties = JsonPath.read(json,
					"$.properties[?(@.name == 'distlock.actuator.force-release-enabled')]");
			assertThat(properties).singleElement().satisfies((property) -> {
				assertThat(property).containsEntry("deprecated", true);
				assertThat(property.get("deprecation")).asInstanceOf(InstanceOfAssertFactories.MAP)
					.containsEntry("replacement", "management.endpoint.locks.access");
			});
		}
	}

	@Test
	void locksEndpointAccessIsDocumentedAsReadOnlyByDefault() throws Exception {
		try (InputStream json = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			List<Map<String, Object>> properties = JsonPath.read(json,
					"$.properties[?(@.name == 'management.endpoint.locks.access')]");
			// Spring Boot's processor writes the endpoint's default access as read_only.
			assertThat(properties).singleElement().satisfies((property) -> {
				assertThat(property).containsEntry("type", "org.springframework.boot.actuate.endpoint.Access");
				assertThat(property.get("defaultValue")).asString().isIn("read-only", "read_only");
			});
		}
	}

	private static List<Map<String, Object>> properties() throws Exception {
		try (InputStream json = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			return JsonPath.read(json, "$.properties[?(@.name =~ /distlock\\..*/)]");
		}
	}

}
