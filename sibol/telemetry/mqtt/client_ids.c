/*
 * The console's client-id rule for Mosquitto 2.0 (plugin API 5), checked at CONNECT.
 *
 * A device signs in with its machine id as user name ("12") and may connect only under its own
 * client id, "sibol-device-12", or that followed by "-" and a suffix of its choice
 * ("sibol-device-12-answer"). Any other user name (the console's own clients) may not use an id
 * that starts with "sibol-device-". A CONNECT that breaks the rule is refused ("not authorised")
 * before the broker looks at the password or at an existing session under that id, so a device
 * key can never take over the console's subscriber or another machine's session.
 *
 * Mosquitto's dynamic-security plugin can bind a client to one exact client id only, which would
 * leave a device a single connection; this rule allows the suffixes. It returns "defer" for
 * every CONNECT it allows, so the next plugin (dynamic security, loaded after this one) still
 * checks the password. Options: plugin_opt_device_prefix (default "sibol-device-").
 *
 * Built by sibol/telemetry/mqtt/plugin.py with the system's C compiler and Mosquitto's headers.
 */
#include <stdlib.h>
#include <string.h>

#include <mosquitto.h>
#include <mosquitto_broker.h>
#include <mosquitto_plugin.h>

#define PREFIX_MAX 64

static mosquitto_plugin_id_t *plugin_id = NULL;
static char device_prefix[PREFIX_MAX + 1] = "sibol-device-";

/* A machine's user name: 1 to 18 digits. */
static int is_machine_id(const char *username)
{
	size_t len = strlen(username);
	if(len == 0 || len > 18) return 0;
	for(size_t i = 0; i < len; i++){
		if(username[i] < '0' || username[i] > '9') return 0;
	}
	return 1;
}

/* Whether `client_id` is "<prefix><machine>" or "<prefix><machine>-<at least one character>". */
static int is_own_device_id(const char *client_id, const char *machine)
{
	size_t prefix_len = strlen(device_prefix);
	size_t machine_len = strlen(machine);
	if(strncmp(client_id, device_prefix, prefix_len) != 0) return 0;
	client_id += prefix_len;
	if(strncmp(client_id, machine, machine_len) != 0) return 0;
	client_id += machine_len;
	return client_id[0] == '\0' || (client_id[0] == '-' && client_id[1] != '\0');
}

static int on_basic_auth(int event, void *event_data, void *userdata)
{
	struct mosquitto_evt_basic_auth *ed = event_data;
	const char *client_id;
	(void)event;
	(void)userdata;

	if(ed->username == NULL) return MOSQ_ERR_PLUGIN_DEFER;
	client_id = mosquitto_client_id(ed->client);
	if(client_id == NULL) return MOSQ_ERR_AUTH;
	if(is_machine_id(ed->username)){
		if(is_own_device_id(client_id, ed->username)) return MOSQ_ERR_PLUGIN_DEFER;
	}else if(strncmp(client_id, device_prefix, strlen(device_prefix)) != 0){
		return MOSQ_ERR_PLUGIN_DEFER;
	}
	mosquitto_log_printf(MOSQ_LOG_NOTICE, "Refused client id %s for user %s: not its own.", client_id,
			ed->username);
	return MOSQ_ERR_AUTH;
}

int mosquitto_plugin_version(int supported_version_count, const int *supported_versions)
{
	for(int i = 0; i < supported_version_count; i++){
		if(supported_versions[i] == 5) return 5;
	}
	return -1;
}

int mosquitto_plugin_init(mosquitto_plugin_id_t *identifier, void **userdata, struct mosquitto_opt *options,
		int option_count)
{
	(void)userdata;
	for(int i = 0; i < option_count; i++){
		if(strcmp(options[i].key, "device_prefix") == 0){
			if(strlen(options[i].value) == 0 || strlen(options[i].value) > PREFIX_MAX) return MOSQ_ERR_INVAL;
			strcpy(device_prefix, options[i].value);
		}
	}
	plugin_id = identifier;
	return mosquitto_callback_register(plugin_id, MOSQ_EVT_BASIC_AUTH, on_basic_auth, NULL, NULL);
}

int mosquitto_plugin_cleanup(void *userdata, struct mosquitto_opt *options, int option_count)
{
	(void)userdata;
	(void)options;
	(void)option_count;
	return mosquitto_callback_unregister(plugin_id, MOSQ_EVT_BASIC_AUTH, on_basic_auth, NULL);
}
