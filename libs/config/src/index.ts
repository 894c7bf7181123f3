export {
  AppConfig,
  blankToUndefined,
  ConfigError,
  KAFKA_DEFAULT_FETCH_MAX_WAIT_MS,
  loadConfig,
  loadConfigOf,
  toInt,
} from './app-config';
