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

import java.util.Set;
import java.util.stream.Collectors;

import io.distlock.autoconfigure.DistLockAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.web.WebEndpointsSupplier;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which operations Spring Boot's endpoint access control leaves to the {@code locks}
 * endpoint over the web, for {@code management.endpoint.locks.access}, Boot's other
 * access properties and the deprecated {@code distlock.actuator.force-release-enabled}.
 * No Redis is needed: the endpoint is only discovered, never asked.
 */
@ExtendWith(OutputCaptureExtension.class)
class LocksEndpointAccessTests {

	private static final String DEPRECATION_WARNING = "Property 'distlock.actuator.force-release-enabled' is deprecated";

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
				DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class,
				DistLockEndpointAutoConfiguration.class))
		// Reads access levels as a SpringApplication does: "read-only" as READ_ONLY.
		.withInitializer((context) -> context.getEnvironment().setConversionService(new ApplicationConversionService()))
		// Nothing listens there: the release subscription retries in the background.
		.withPropertyValues("spring.data.redis.port=1", "management.endpoints.web.exposure.include=locks");

	@Test
	void forceReleaseIsLeftOutByTheDefaultReadOnlyAccess() {
		this.contextRunner.run((context) -> assertThat(operationTypes(context)).containsExactly(OperationType.READ));
	}

	@Test
	void forceReleaseIsLeftOutByReadOnlyAccess() {
		this.contextRunner.withPropertyValues("management.endpoint.locks.access=read-only")
			.run((context) -> assertThat(operationTypes(context)).containsExactly(OperationType.READ));
	}

	@Test
	void forceReleaseIsAnOperationWithUnrestrictedAccess() {
		this.contextRunner.withPropertyValues("management.endpoint.locks.access=unrestricted")
			.run((context) -> assertThat(operationTypes(context)).containsExactlyInAnyOrder(OperationType.READ,
					OperationType.DELETE));
	}

	@Test
	void forceReleaseIsAnOperationWithUnrestrictedAccessByDefaultForAllEndpoints() {
		this.contextRunner.withPropertyValues("management.endpoints.access.default=unrestricted")
			.run((context) -> assertThat(operationTypes(context)).containsExactlyInAnyOrder(OperationType.READ,
					OperationType.DELETE));
	}

	@Test
	void deprecatedForceReleaseEnabledActsAsUnrestrictedAccessAndIsLoggedOnce(CapturedOutput output) {
		this.contextRunner.withPropertyValues("distlock.actuator.force-release-enabled=true").run((context) -> {
			assertThat(operationTypes(context)).containsExactlyInAnyOrder(OperationType.READ, OperationType.DELETE);
			assertThat(output.getOut().split(DEPRECATION_WARNING, -1)).hasSize(2);
			assertThat(output).contains("applied as 'management.endpoint.locks.access=unrestricted'");
		});
	}

	@Test
	void deprecatedForceReleaseDisabledActsAsReadOnlyAccessOverTheDefaultForAllEndpoints() {
		this.contextRunner
			.withPropertyValues("distlock.actuator.force-release-enabled=false",
					"management.endpoints.access.default=unrestricted")
			.run((context) -> assertThat(operationTypes(context)).containsExactly(OperationType.READ));
	}

	@Test
	void accessPropertyWinsOverTheDeprecatedForceReleaseEnabled(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("distlock.actuator.force-release-enabled=true",
					"management.endpoint.locks.access=read-only")
			.run((context) -> {
				assertThat(operationTypes(context)).containsExactly(OperationType.READ);
				assertThat(output).contains(DEPRECATION_WARNING + " and ignored");
			});
	}

	@Test
	void accessPropertyWinsOverTheDeprecatedForceReleaseDisabled() {
		this.contextRunner
			.withPropertyValues("distlock.actuator.force-release-enabled=false",
					"management.endpoint.locks.access=unrestricted")
			.run((context) -> assertThat(operationTypes(context)).containsExactlyInAnyOrder(OperationType.READ,
					OperationType.DELETE));
	}

	@Test
	void maxPermittedAccessCapsTheDeprecatedForceReleaseEnabled() {
		this.contextRunner
			.withPropertyValues("distlock.actuator.force-release-enabled=true",
					"management.endpoints.access.max-permitted=read-only")
			.run((context) -> assertThat(operationTypes(context)).containsExactly(OperationType.READ));
	}

	@Test
	void endpointIsLeftOutWithNoAccess() {
		this.contextRunner.withPropertyValues("management.endpoint.locks.access=none")
			.run((context) -> assertThat(context).doesNotHaveBean(LocksEndpoint.class));
	}

	private static Set<OperationType> operationTypes(AssertableWebApplicationContext context) {
		assertThat(context).hasNotFailed();
		return context.getBean(WebEndpointsSupplier.class)
			.getEndpoints()
			.stream()
			.filter((endpoint) -> endpoint.getEndpointId().equals(EndpointId.of("locks")))
			.flatMap((endpoint) -> endpoint.getOperations().stream())
			.map(WebOperation::getType)
			.collect(Collectors.toSet());
	}

}
