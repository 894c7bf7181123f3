export {
  AppConfig,
  blankToUndefined,
  ConfigError,
  loadConfig,
  loadConfigOf,
  toInt,
} from './app-config';
