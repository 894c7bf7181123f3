import { RatingModule } from '@consign/rating';
import { runMain, runServiceProcess } from '@consign/platform';

runMain('rating-service', () => runServiceProcess('rating-service', RatingModule));
